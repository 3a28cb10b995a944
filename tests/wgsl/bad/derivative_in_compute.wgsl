// expect: 5:11 'dpdx' is only allowed in fragment shaders
// §Derivative Built-in Functions: derivatives must only be used in a
// fragment shader stage, here through a helper called from compute.
fn slope(x: f32) -> f32 {
  return  dpdx(x);
}
@compute @workgroup_size(1) fn main() {
  _ = slope(1.0);
}
