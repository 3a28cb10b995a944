enable subgroup_size_control;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) @subgroup_size(32)
fn main(@builtin(subgroup_invocation_id) i: u32, @builtin(subgroup_size) n: u32) {
  out[i] = n;
}
