// expect: 3:11 matrix components must be floats
@compute @workgroup_size(1) fn main() {
  let x = mat2x2(true, false, true, false);
}
