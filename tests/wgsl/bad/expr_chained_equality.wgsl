// expect: 4:12 cannot be chained
// §Operator Precedence and Associativity: == does not associate.
fn f(a: bool, b: bool, c: bool) -> bool {
  return a == b == c;
}
@compute @workgroup_size(1) fn main() {}
