// textureSampleLevel on a 4x4 rgba16float texture at level 0 with five
// samplers: nearest, and linear under each address mode, the last one with
// a texel offset. Each invocation samples one coordinate pair.
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var s_nearest: sampler;
@group(0) @binding(2) var s_clamp: sampler;
@group(0) @binding(3) var s_repeat: sampler;
@group(0) @binding(4) var s_mirror: sampler;
@group(0) @binding(5) var s_mixed: sampler;
@group(0) @binding(6) var<storage, read> coords: array<vec2f>;
@group(0) @binding(7) var<storage, read_write> result: array<vec4f>;

fn sample_all(t: texture_2d<f32>, c: vec2f, base: u32) {
  result[base + 0] = textureSampleLevel(t, s_nearest, c, 0.0);
  result[base + 1] = textureSampleLevel(t, s_clamp, c, 0.0);
  result[base + 2] = textureSampleLevel(t, s_repeat, c, 0.0);
  result[base + 3] = textureSampleLevel(t, s_mirror, c, 0.0);
  result[base + 4] = textureSampleLevel(t, s_mixed, c, 0.0, vec2i(1, -2));
}

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&coords)) {
    return;
  }
  sample_all(tex, coords[i], i * 5u);
}
