// expect: 5:27 no overload of 'textureSampleBaseClampToEdge' for texture_3d<f32>
// §textureSampleBaseClampToEdge: texture_2d<f32> or texture_external.
@group(0) @binding(0) var t: texture_3d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main() { _ = textureSampleBaseClampToEdge(t, s, vec3f()); }
