// expect: 3:11 determinant
@compute @workgroup_size(1) fn main() {
  let x = determinant(mat2x3f());
}
