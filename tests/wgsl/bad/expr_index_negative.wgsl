// expect: 5:12 out of bounds
// §Array Access Expression: a negative const index is out of bounds.
fn f() -> i32 {
  var a: array<i32, 4>;
  return a[-1];
}
@compute @workgroup_size(1) fn main() {}
