// expect: 4:12 mixing '+' and '<<' requires parentheses
// §Operator Precedence and Associativity: a shift's operands are unary expressions, so a + b << c needs parentheses.
fn f(a: u32, b: u32) -> u32 {
  return a + b << 1u;
}
@compute @workgroup_size(1) fn main() {}
