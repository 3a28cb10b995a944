// expect: 9:5 must only be called from uniform control flow (chromium.subgroup_matrix_uniformity)
// Subgroup matrix built-ins trigger chromium.subgroup_matrix_uniformity
// (default error) outside uniform control flow (Dawn
// docs/dawn/features/subgroup_matrix.md, "Uniformity").
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) {
    subgroupMatrixStore<row_major>(&buf, 0, subgroup_matrix_left<f32, 8, 8>(), 8);
  }
}
