// Two workgroups store to the same 8 texels of a storage texture: nothing
// orders workgroups of one dispatch, so each texel is a write-write race
// between invocation i of workgroup 0 and invocation i of workgroup 1
// (they store different values: their workgroup id).
@group(0) @binding(0) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wg: vec3u) {
  textureStore(dst, vec2u(i, 1u), vec4f(f32(wg.x), 0.0, 0.0, 0.0));
}
