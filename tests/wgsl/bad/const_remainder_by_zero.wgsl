// expect: 3:11 remainder by zero
// §Arithmetic Expressions: a const integer remainder by zero is a shader-creation error.
const a = 7u % 0u;
@compute @workgroup_size(1) fn main() {}
