// Comparison sampling of depth textures: textureSampleCompareLevel with a
// nearest and a linear (percentage-closer) comparison sampler, a texel
// offset and an array layer, and textureGatherCompare.
@group(0) @binding(0) var td: texture_depth_2d;
@group(0) @binding(1) var tda: texture_depth_2d_array;
@group(0) @binding(2) var sc_less: sampler_comparison;
@group(0) @binding(3) var sc_pcf: sampler_comparison;
@group(0) @binding(4) var<storage, read> query: array<vec4f>; // coords, depth_ref, layer
@group(0) @binding(5) var<storage, read_write> result: array<vec4f>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let q = query[i];
  let layer = i32(q.w);
  result[3u * i] = vec4f(textureSampleCompareLevel(td, sc_less, q.xy, q.z),
                         textureSampleCompareLevel(td, sc_pcf, q.xy, q.z),
                         textureSampleCompareLevel(td, sc_pcf, q.xy, q.z, vec2i(1, -1)),
                         textureSampleCompareLevel(tda, sc_less, q.xy, layer, q.z));
  result[3u * i + 1u] = textureGatherCompare(td, sc_less, q.xy, q.z);
  result[3u * i + 2u] = textureGatherCompare(tda, sc_pcf, q.xy, u32(layer), q.z, vec2i(-1, 0));
}
