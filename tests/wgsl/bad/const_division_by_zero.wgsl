// expect: 3:11 division by zero
// §Arithmetic Expressions: a const integer division by zero is a shader-creation error.
const a = 7i / 0i;
@compute @workgroup_size(1) fn main() {}
