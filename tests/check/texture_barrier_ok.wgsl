// As race_texture_wgbarrier, with textureBarrier between the store and
// the neighbour's load: it orders texel accesses in the workgroup, so
// there is no race (and no other finding).
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  textureStore(img, vec2u(i, 0u), vec4f(f32(i) + 0.5, 0.0, 0.0, 0.0));
  textureBarrier();
  out[i] = textureLoad(img, vec2u((i + 1u) % 8u, 0u)).x;
}
