var<workgroup> tile: array<f32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) gid: vec3u) {
  tile[li] = f32(li);
  workgroupBarrier();
  out[gid.x] = tile[li + 1u];
}
