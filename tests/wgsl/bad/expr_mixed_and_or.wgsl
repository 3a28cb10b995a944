// expect: 4:12 mixing '&' and '|' requires parentheses
// §Operator Precedence and Associativity: & and | cannot be mixed without parentheses.
fn f(a: u32, b: u32, c: u32) -> u32 {
  return a & b | c;
}
@compute @workgroup_size(1) fn main() {}
