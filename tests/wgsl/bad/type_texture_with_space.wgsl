// expect: 3:27 declared without an address space
// §Texture and Sampler Types: handle variables are declared without an address space.
@group(0) @binding(0) var<uniform> t: texture_2d<f32>;
@compute @workgroup_size(1) fn main() {}
