// expect: 5:14 const_assert failed
// §Const Assertion Statement: a const_assert whose condition is false is a
// shader-creation error.
const n = 3;
const_assert n * 2 == 7;
@compute @workgroup_size(1) fn main() {}
