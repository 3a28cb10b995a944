// expect: 4:18 no operator '^' for bool and bool
// §Bit Expressions: ^ is defined on integer scalars and vectors only; bool
// has & and | (§Logical Expressions) but no ^.
fn f() { let p = true ^ false; }
@compute @workgroup_size(1) fn main() { f(); }
