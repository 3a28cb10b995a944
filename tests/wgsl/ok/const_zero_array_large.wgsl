// §Const Expressions: a zero-value constructor is a const-expression; its
// elements are 0 (a million leaves, folded).
const big = array<array<i32, 1000>, 1000>();
const_assert big[999][999] == 0;
@compute @workgroup_size(1) fn main() {}
