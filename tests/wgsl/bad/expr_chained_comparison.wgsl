// expect: 4:12 cannot be chained
// §Operator Precedence and Associativity: relational operators do not associate (a < b < c).
fn f(a: i32, b: i32, c: i32) -> bool {
  return a < b < c;
}
@compute @workgroup_size(1) fn main() {}
