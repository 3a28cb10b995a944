// expect: 4:10 no operator '<'
// §Comparison Expressions: < takes numeric operands.
fn f(a: bool, b: bool) -> bool {
  return a < b;
}
@compute @workgroup_size(1) fn main() {}
