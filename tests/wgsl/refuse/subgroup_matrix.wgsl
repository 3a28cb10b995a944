// expect: 6:7 a subgroup matrix is not supported by lockstep yet
// Validated, not executed: pipeline creation refuses subgroup matrices.
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64) fn main() {
  let m = subgroup_matrix_left<f32, 8, 8>(1.0);
  subgroupMatrixStore<row_major>(&buf, 0, m, 8);
}
