// expect: 5:19 subgroup matrices can only be held in function or private variables
// Subgroup matrices can only be instantiated in the function and private
// address spaces (Dawn docs/dawn/features/subgroup_matrix.md, "Variables").
enable chromium_experimental_subgroup_matrix;
var<workgroup> m: subgroup_matrix_left<f32, 8, 8>;
@compute @workgroup_size(64) fn main() { _ = m; }
