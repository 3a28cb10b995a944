@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  var i = 0u;
  let step = select(1u, 0u, gid.x == 77u);
  while (i < 1000u) {
    i = i + step;
  }
  data[gid.x] = i;
}
