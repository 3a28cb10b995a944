// expect: 4:36 texture_2d<f32> cannot be an array element type
// §Array Types: the element type must be a plain type; textures are not
// (binding_array is the array of handles).
@group(0) @binding(0) var t: array<texture_2d<f32>, 2>;
@fragment fn f() {}
