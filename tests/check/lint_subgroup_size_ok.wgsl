// @subgroup_size(32) pins the width: a workgroup of 32 leaves no lane idle,
// so the lint says nothing about lanes (without the attribute it would
// warn about W = 64).
enable subgroup_size_control;
struct P { count: u32 };
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> params: P;
@compute @workgroup_size(32) @subgroup_size(32)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(subgroup_size) n: u32) {
  if (g.x >= params.count) { return; }
  out[g.x] = n;
}
