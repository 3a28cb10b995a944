@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32) {
  data[gid.x] = li;
  storageBarrier();
  data[gid.x + 64u] = data[gid.x ^ 1u];
}
