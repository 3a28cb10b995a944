// A 16x8 grid over a 13x7 image with no guard: the stores at x = 13..15
// (3 x 8 invocations) and at y = 7 (13 more) fall outside the texture.
@group(0) @binding(0) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  textureStore(dst, gid.xy, vec4f(f32(gid.x + 100u * gid.y), 0.0, 0.0, 0.0));
}
