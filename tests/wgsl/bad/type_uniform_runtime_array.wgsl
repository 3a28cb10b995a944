// expect: 3:39 cannot hold runtime-sized arrays
// §Address Spaces: uniform memory holds constructible types; a runtime-sized array is not one.
@group(0) @binding(0) var<uniform> b: array<vec4f>;
@compute @workgroup_size(1) fn main() {}
