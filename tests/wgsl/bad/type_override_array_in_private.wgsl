// expect: 4:17 only allowed in workgroup memory
// §Array Types: an override-sized array is only allowed in workgroup memory.
override n = 4;
var<private> a: array<f32, n>;
@compute @workgroup_size(1) fn main() {}
