// An r32float read-write storage texture updated in place: each invocation
// reads its texel, runs x = x * scale + bias three times and writes it
// back. The guard comes from textureDimensions (the grid is larger than
// the image); a load past the right edge and a store at x = -1 are out of
// bounds. WGSL lets the load return some texel of the texture, (0,0,0,0) or
// (0,0,0,1) (lockstep gives 0, Dawn an edge texel, which on a read-write
// texture another invocation may be rewriting), so only what every choice
// shares reaches the image: y and z are 0 and w is 0 or 1 (an r32float texel
// reads as (r, 0, 0, 1)). The store is never executed (WGSL requires it).
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<uniform> params: vec4f; // scale, bias, unused, unused

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let dims = textureDimensions(img);
  if (any(gid.xy >= dims)) { return; }
  var x = textureLoad(img, gid.xy).x;
  for (var k = 0; k < 3; k++) { x = x * params.x + params.y; }
  let o = textureLoad(img, vec2u(dims.x, gid.y));
  x += o.y + o.z + select(1e9, 0.0, o.w == 0.0 || o.w == 1.0);
  textureStore(img, vec2i(-1, i32(gid.y)), vec4f(1e9));
  textureStore(img, gid.xy, vec4f(x, 0.0, 0.0, 0.0));
}
