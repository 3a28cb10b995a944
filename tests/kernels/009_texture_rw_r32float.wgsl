// An r32float read-write storage texture updated in place: each invocation
// reads its texel, runs x = x * scale + bias three times and writes it
// back. The guard comes from textureDimensions (the grid is larger than
// the image); a load past the right edge and a store at x = -1 are out of
// bounds: the load gives 0 and the store is dropped.
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<uniform> params: vec4f; // scale, bias, unused, unused

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let dims = textureDimensions(img);
  if (any(gid.xy >= dims)) { return; }
  var x = textureLoad(img, gid.xy).x;
  for (var k = 0; k < 3; k++) { x = x * params.x + params.y; }
  x += textureLoad(img, vec2u(dims.x, gid.y)).x;
  textureStore(img, vec2i(-1, i32(gid.y)), vec4f(1e9));
  textureStore(img, gid.xy, vec4f(x, 0.0, 0.0, 0.0));
}
