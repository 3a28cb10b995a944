@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
  var i = 0u;
  loop { i = i + 1u; if (i == 0xffffffffu) { break; } }
  out[0] = i;
}
