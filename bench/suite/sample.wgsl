// One bilinear textureSampleLevel per invocation: a 512x512 rgba8unorm
// texture resampled with a clamp-to-edge linear sampler (bench_sample's
// kernel).
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let uv = (vec2f(g.xy) + vec2f(0.3, 0.7)) / 512.0;
  let c = textureSampleLevel(tex, smp, uv, 0.0);
  out[g.y * 512u + g.x] = c.r + c.g + c.b + c.a;
}
