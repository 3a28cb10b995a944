// expect: 4:11 no operator '*' for mat2x3<f32> and vec3<f32>
@compute @workgroup_size(1) fn main() {
  let m = mat2x3f();
  let x = m * vec3f(1.0);
}
