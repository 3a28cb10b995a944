// expect: 3:11 no operator '==' for mat2x2<f32>
@compute @workgroup_size(1) fn main() {
  let x = mat2x2f() == mat2x2f();
}
