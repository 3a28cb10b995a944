// Sampling a 3D texture (nearest, trilinear, an offset) and a cube map
// (face selection, bilinear filtering across face edges, textureGather),
// plus the cube's textureDimensions.
@group(0) @binding(0) var t3: texture_3d<f32>;
@group(0) @binding(1) var tc: texture_cube<f32>;
@group(0) @binding(2) var s_near: sampler;
@group(0) @binding(3) var s_lin: sampler;
@group(0) @binding(4) var<storage, read> c3: array<vec4f>;
@group(0) @binding(5) var<storage, read> dirs: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> result: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> dims: array<u32, 2>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let c = c3[i].xyz;
  let d = dirs[i].xyz;
  let o = i * 6u;
  result[o + 0] = textureSampleLevel(t3, s_near, c, 0.0);
  result[o + 1] = textureSampleLevel(t3, s_lin, c, 0.0);
  result[o + 2] = textureSampleLevel(t3, s_lin, c, 0.0, vec3i(1, 0, -1));
  result[o + 3] = textureSampleLevel(tc, s_near, d, 0.0);
  result[o + 4] = textureSampleLevel(tc, s_lin, d, 0.0);
  result[o + 5] = textureGather(1, tc, s_lin, d);
  if (i == 0u) {
    let s = textureDimensions(tc);
    dims[0] = s.x;
    dims[1] = s.y;
  }
}
