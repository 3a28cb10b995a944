// expect: 5:12 out of bounds
// §Array Access Expression: a const index outside a fixed-size array is a shader-creation error.
fn f() -> i32 {
  var a: array<i32, 4>;
  return a[4];
}
@compute @workgroup_size(1) fn main() {}
