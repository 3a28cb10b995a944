// expect: 3:11 no constructor mat2x2<f32>(...)
@compute @workgroup_size(1) fn main() {
  let x = mat2x2f(1i, 2i, 3i, 4i);
}
