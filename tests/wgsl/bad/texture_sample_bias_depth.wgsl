// expect: 5:27 no overload of 'textureSampleBias' for texture_depth_2d
// §textureSampleBias: sampled textures of f32 only, no depth textures.
@group(0) @binding(0) var t: texture_depth_2d;
@group(0) @binding(1) var s: sampler;
@fragment fn main() { _ = textureSampleBias(t, s, vec2f(), 0.5); }
