// expect: 3:17 matrix components must be f32 or f16
@compute @workgroup_size(1) fn main() {
  var x: mat2x2<i32>;
}
