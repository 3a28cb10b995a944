// expect: 5:27 no overload of 'textureSampleGrad' for texture_1d<f32>
// §textureSampleGrad: no 1D form.
@group(0) @binding(0) var t: texture_1d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main() { _ = textureSampleGrad(t, s, 0.5, 0.1, 0.1); }
