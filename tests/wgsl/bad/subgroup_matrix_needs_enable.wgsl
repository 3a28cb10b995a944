// expect: 4:17 needs 'enable chromium_experimental_subgroup_matrix;'
// The subgroup matrix types exist only under their extension (Dawn
// docs/dawn/features/subgroup_matrix.md, "Enable Extension").
var<private> m: subgroup_matrix_left<f32, 8, 8>;
@compute @workgroup_size(64) fn main() {}
