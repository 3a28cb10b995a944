// §Diagnostic Filtering: a two-token rule name in a @diagnostic attribute filters
// that rule (here chromium.subgroup_matrix_uniformity, off on the function).
enable chromium_experimental_subgroup_matrix;
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@diagnostic(off, chromium.subgroup_matrix_uniformity)
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) {
    subgroupMatrixStore<row_major>(&buf, 0, subgroup_matrix_left<f32, 8, 8>(), 8);
  }
}
