// sampler-layout-auto: a `sampler` read with a depth or an integer texture
// is valid WGSL, but layout "auto" makes the sampler "filtering", which
// WebGPU rejects with such a texture. Reported once per call, also inside
// a function called twice; a float texture or a sampler_comparison is fine.
@group(0) @binding(0) var td: texture_depth_2d;
@group(0) @binding(1) var tu: texture_2d<u32>;
@group(0) @binding(2) var tf: texture_2d<f32>;
@group(0) @binding(3) var s: sampler;
@group(0) @binding(4) var sc: sampler_comparison;
@group(0) @binding(5) var<storage, read_write> o: array<vec4f, 4>;

fn gather_u(t: texture_2d<u32>, c: vec2f) -> vec4f {
  return vec4f(textureGather(0, t, s, c));
}

@compute @workgroup_size(1)
fn main() {
  o[0] = vec4f(textureSampleLevel(td, s, vec2f(0.5), 0));
  o[1] = gather_u(tu, vec2f(0.5)) + gather_u(tu, vec2f(0.25));
  o[2] = textureSampleLevel(tf, s, vec2f(0.5), 0.0);
  o[3] = vec4f(textureSampleCompareLevel(td, sc, vec2f(0.5), 0.5));
}
