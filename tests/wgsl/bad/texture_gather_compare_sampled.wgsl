// expect: 5:27 no overload of 'textureGatherCompare' for texture_2d<f32>
// §textureGatherCompare: depth textures only.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler_comparison;
@fragment fn main() { _ = textureGatherCompare(t, s, vec2f(), 0.5); }
