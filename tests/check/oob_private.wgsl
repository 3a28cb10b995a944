@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var a: array<u32, 4>;
  a[gid.x % 8u] = gid.x;
  out[gid.x] = a[0];
}
