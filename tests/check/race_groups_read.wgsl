@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3u) {
  if (wid.x == 0u) {
    data[1] = 5u;
  } else {
    data[2] = data[1];
  }
}
