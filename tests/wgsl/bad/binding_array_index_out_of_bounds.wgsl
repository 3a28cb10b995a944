// expect: 5:29 index 4 is out of bounds for binding_array<texture_2d<f32>, 4>
// A constant index must be inside the binding array (as for arrays,
// §Array Access Expression).
@group(0) @binding(0) var texs: binding_array<texture_2d<f32>, 4>;
@fragment fn f() { _ = texs[4]; }
