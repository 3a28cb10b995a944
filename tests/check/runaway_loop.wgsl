@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var n = 0u;
  loop {
    n = n + 1u;
  }
  out[gid.x] = n;
}
