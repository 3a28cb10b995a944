// expect: 5:38 subgroup matrix components are f32, f16, i32, u32, i8 or u8
// The component type is one of the table's entries (Dawn
// docs/dawn/features/subgroup_matrix.md, "Types").
enable chromium_experimental_subgroup_matrix;
var<private> m: subgroup_matrix_left<bool, 8, 8>;
@compute @workgroup_size(64) fn main() {}
