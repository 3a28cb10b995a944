// §Array Access Expression: the last valid const index, and dynamic indices.
fn f(i: u32) -> f32 {
  var a: array<f32, 4>;
  let v = vec3f();
  let m = mat2x3f();
  return a[3] + v[2] + m[1][2] + a[i];
}
@compute @workgroup_size(1) fn main() {}
