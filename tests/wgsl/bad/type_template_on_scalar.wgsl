// expect: 3:17 does not take template arguments
// §Type Declarations: scalar types take no template arguments.
var<private> x: i32<f32>;
@compute @workgroup_size(1) fn main() {}
