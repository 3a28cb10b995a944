// expect: 4:31 greater than 0
// §Const Expressions: subexpressions that determine a static type are
// evaluated even when a short circuit skips the operand.
const c = false && array<u32, 1 - 2>(0)[0] == 0;
@compute @workgroup_size(1) fn main() {}
