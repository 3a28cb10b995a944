// expect: 3:41 the sampled type of a texture must be f32, i32 or u32, found f16
enable f16;
@group(0) @binding(0) var t: texture_2d<f16>;
@compute @workgroup_size(64) fn main() {}
