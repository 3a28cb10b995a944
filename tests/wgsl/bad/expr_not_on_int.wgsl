// expect: 4:10 no operator '!'
// §Logical Expressions: ! takes a bool (or vector of bool).
fn f(x: i32) -> bool {
  return !x;
}
@compute @workgroup_size(1) fn main() {}
