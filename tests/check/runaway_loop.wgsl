@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var n = 0u;
  loop {
    n = n + 1u;
    if n == 0u { break; } // only after 2^32 trips (WGSL needs a way out)
  }
  out[gid.x] = n;
}
