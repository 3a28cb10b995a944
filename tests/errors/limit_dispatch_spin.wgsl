@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3u) {
  var i = 0u;
  loop { i = i + 1u; if (i == 4096u) { break; } }
  out[wid.x] = i;
}
