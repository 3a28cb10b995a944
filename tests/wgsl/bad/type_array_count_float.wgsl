// expect: 3:28 must be an integer
// §Array Types: the element count is an integer (i32 or u32).
var<private> a: array<f32, 4.0>;
@compute @workgroup_size(1) fn main() {}
