// expect: 3:11 no operator '*' for mat2x3<f32> and mat2x3<f32>
@compute @workgroup_size(1) fn main() {
  let x = mat2x3f() * mat2x3f();
}
