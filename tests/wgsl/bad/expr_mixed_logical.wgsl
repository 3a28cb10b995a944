// expect: 4:12 requires parentheses
// §Operator Precedence and Associativity: && and || cannot be mixed without parentheses.
fn f(a: bool, b: bool, c: bool) -> bool {
  return a && b || c;
}
@compute @workgroup_size(1) fn main() {}
