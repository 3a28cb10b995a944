// textureGather (each component, offsets, an integer texture, a texture
// array with its index clamped), textureSampleBaseClampToEdge, and
// textureSampleLevel on a 2D array and a 1D texture.
@group(0) @binding(0) var t2: texture_2d<f32>;
@group(0) @binding(1) var tu: texture_2d<u32>;
@group(0) @binding(2) var ta: texture_2d_array<f32>;
@group(0) @binding(3) var t1: texture_1d<f32>;
@group(0) @binding(4) var s_lin: sampler;
@group(0) @binding(5) var s_rep: sampler;
@group(0) @binding(6) var s_nf: sampler;
@group(0) @binding(7) var<storage, read> coords: array<vec2f>;
@group(0) @binding(8) var<storage, read_write> result: array<vec4f>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let c = coords[i];
  let layer = i32(i % 6u) - 1; // -1 .. 4 on a 3-layer array: clamped to 0 .. 2
  let o = i * 8u;
  result[o + 0] = textureGather(0, t2, s_lin, c);
  result[o + 1] = textureGather(1, t2, s_lin, c, vec2i(-1, 2));
  result[o + 2] = textureGather(3, t2, s_rep, c);
  result[o + 3] = vec4f(textureGather(2, tu, s_nf, c));
  result[o + 4] = textureGather(0, ta, s_rep, c, layer);
  result[o + 5] = textureSampleBaseClampToEdge(t2, s_lin, c);
  result[o + 6] = textureSampleLevel(ta, s_lin, c, u32(i % 4u), 0.0);
  result[o + 7] = textureSampleLevel(t1, s_rep, c.x, 0.0);
}
