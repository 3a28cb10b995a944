// expect: 7:23 expected a matrix layout (row_major or col_major)
// The layout template argument is row_major or col_major (the corpus's
// spelling of Dawn's col_major flag).
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64) fn main() {
  subgroupMatrixStore<diagonal>(&buf, 0, subgroup_matrix_left<f32, 8, 8>(), 8);
}
