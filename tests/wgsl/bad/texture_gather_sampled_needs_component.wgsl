// expect: 6:27 no overload of 'textureGather' for texture_2d<f32>
// §textureGather: a sampled texture takes a component argument first; only
// depth textures are gathered without one.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main() { _ = textureGather(t, s, vec2f()); }
