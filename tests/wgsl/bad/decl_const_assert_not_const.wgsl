// expect: 4:14 const_assert needs a const-expression
// §Const Assertion Statement: the condition must be a const-expression.
override o = 1;
const_assert o == 1;
@compute @workgroup_size(1) fn main() {}
