// Each invocation stores texel i, then reads its neighbour's texel i + 1
// after a workgroupBarrier. workgroupBarrier orders the workgroup address
// space only (WGSL: storageBarrier storage, textureBarrier the handle
// space), so the read races with the neighbour's store.
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  textureStore(img, vec2u(i, 0u), vec4f(f32(i) + 0.5, 0.0, 0.0, 0.0));
  workgroupBarrier();
  out[i] = textureLoad(img, vec2u((i + 1u) % 8u, 0u)).x;
}
