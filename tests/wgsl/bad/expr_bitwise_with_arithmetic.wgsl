// expect: 4:12 mixing '+' and '&' requires parentheses
// §Operator Precedence and Associativity: the operands of & are unary expressions, so a + b & c needs parentheses.
fn f(a: u32, b: u32, c: u32) -> u32 {
  return a + b & c;
}
@compute @workgroup_size(1) fn main() {}
