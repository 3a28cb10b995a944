// expect: 3:11 overflows i32
// §Arithmetic Expressions: a const i32 result that overflows is a shader-creation error.
const a = 2147483647i + 1i;
@compute @workgroup_size(1) fn main() {}
