var<workgroup> buf: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) gid: vec3u) {
  buf[li] = li;
  workgroupBarrier();
  out[gid.x] = buf[63u - li];
}
