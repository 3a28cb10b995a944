// expect: 3:11 overflows i32
// §Arithmetic Expressions: a const i32 product that overflows is an error.
const a = 65536i * 65536i;
@compute @workgroup_size(1) fn main() {}
