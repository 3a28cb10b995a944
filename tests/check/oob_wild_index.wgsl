@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = 0xFFFFFFFFu - gid.x;
  data[i] = data[i ^ 0x80000000u] + 1u;
}
