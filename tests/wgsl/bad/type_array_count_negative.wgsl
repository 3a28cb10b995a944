// expect: 4:28 greater than 0
// §Array Types: a const element count must be greater than zero.
const n = -4;
var<private> a: array<f32, n>;
@compute @workgroup_size(1) fn main() {}
