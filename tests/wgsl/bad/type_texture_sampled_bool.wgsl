// expect: 3:41 must be f32, i32 or u32
// §Sampled Texture Types: the sampled type is f32, i32 or u32.
@group(0) @binding(0) var t: texture_2d<bool>;
@compute @workgroup_size(1) fn main() {}
