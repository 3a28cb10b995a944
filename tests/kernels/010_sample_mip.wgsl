// Mip level selection: textureSampleLevel at explicit levels and
// textureSampleGrad with gradients, on an 8x8 rgba16float texture with 4
// levels, through samplers with nearest and linear mipmap filters and a
// clamped level-of-detail range.
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var s_mip_nearest: sampler;
@group(0) @binding(2) var s_mip_linear: sampler;
@group(0) @binding(3) var s_lod_clamped: sampler;
@group(0) @binding(4) var s_min_mag: sampler;
@group(0) @binding(5) var<storage, read> coords: array<vec2f>;
@group(0) @binding(6) var<storage, read> levels: array<f32>;
@group(0) @binding(7) var<storage, read> grads: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> result: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> gradlin: array<vec4f>;

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let c = coords[gid.x];
  let lv = levels[gid.y];
  let g = grads[gid.y];
  let i = gid.y * arrayLength(&coords) + gid.x;
  let base = i * 5u;
  result[base + 0] = textureSampleLevel(tex, s_mip_nearest, c, lv);
  result[base + 1] = textureSampleLevel(tex, s_mip_linear, c, lv);
  result[base + 2] = textureSampleLevel(tex, s_lod_clamped, c, lv);
  result[base + 3] = textureSampleLevel(tex, s_min_mag, c, lv);
  result[base + 4] = textureSampleGrad(tex, s_mip_nearest, c, g.xy, g.zw);
  gradlin[i] = textureSampleGrad(tex, s_mip_linear, c, g.xy, g.zw);
}
