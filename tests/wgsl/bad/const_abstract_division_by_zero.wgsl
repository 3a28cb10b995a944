// expect: 3:11 division by zero
// §Arithmetic Expressions: AbstractInt division by zero is a shader-creation error.
const a = 1 / 0;
@compute @workgroup_size(1) fn main() {}
