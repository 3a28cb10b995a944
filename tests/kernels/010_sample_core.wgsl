// What WebGPU's core feature level adds to sampling over compatibility
// mode: textureLoad of a depth texture, depth textures through a
// non-comparison sampler (textureSampleLevel with an integer level,
// textureGather), cube-array textures, and a depth cube compared.
@group(0) @binding(0) var td: texture_depth_2d;
@group(0) @binding(1) var tca: texture_cube_array<f32>;
@group(0) @binding(2) var tdc: texture_depth_cube;
@group(0) @binding(3) var s_nf: sampler;
@group(0) @binding(4) var s_lin: sampler;
@group(0) @binding(5) var sc: sampler_comparison;
@group(0) @binding(6) var<storage, read> coords: array<vec4f>; // xy: 2D, z: depth_ref
@group(0) @binding(7) var<storage, read> dirs: array<vec4f>;   // xyz: direction
@group(0) @binding(8) var<storage, read_write> result: array<vec4f>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let c = coords[i];
  let d = dirs[i].xyz;
  let layer = i32(i % 3u); // 0, 1, 2 on a 2-cube array: 2 clamps to 1
  result[4u * i] = vec4f(textureLoad(td, vec2u(i % 4u, i / 4u), 0),
                         textureSampleLevel(td, s_nf, c.xy, 0),
                         textureSampleCompareLevel(tdc, sc, d, c.z),
                         f32(textureNumLayers(tca)));
  result[4u * i + 1u] = textureGather(td, s_nf, c.xy);
  result[4u * i + 2u] = textureSampleLevel(tca, s_lin, d, layer, 0.0);
  result[4u * i + 3u] = textureGather(3, tca, s_lin, d, u32(layer));
}
