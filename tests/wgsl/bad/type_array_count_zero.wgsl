// expect: 3:28 greater than 0
// §Array Types: a const element count must be greater than zero.
var<private> a: array<f32, 0>;
@compute @workgroup_size(1) fn main() {}
