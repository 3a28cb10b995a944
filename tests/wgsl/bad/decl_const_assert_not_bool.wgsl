// expect: 3:14 expected bool
// §Const Assertion Statement: the condition is a bool.
const_assert 1;
@compute @workgroup_size(1) fn main() {}
