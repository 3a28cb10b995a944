// expect: 7:34 needs a pointer to an array of numbers in writable storage or workgroup memory
// subgroupMatrixStore: AM is write or read_write (Dawn
// docs/dawn/features/subgroup_matrix.md, "Load/store functions").
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage> buf: array<f32>;
@compute @workgroup_size(64) fn main() {
  subgroupMatrixStore<row_major>(&buf, 0, subgroup_matrix_left<f32, 8, 8>(), 8);
}
