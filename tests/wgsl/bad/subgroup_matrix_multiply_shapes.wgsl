// expect: 8:11 do not multiply
// subgroupMatrixMultiply: L is left<T, K, M>, R is right<T, N, K> — the
// left's columns must equal the right's rows (Dawn
// docs/dawn/features/subgroup_matrix.md, "Matrix arithmetic functions").
enable chromium_experimental_subgroup_matrix;
@compute @workgroup_size(64) fn main() {
  let l = subgroup_matrix_left<f32, 4, 8>();
  let x = subgroupMatrixMultiply<f32>(l, subgroup_matrix_right<f32, 8, 8>());
}
