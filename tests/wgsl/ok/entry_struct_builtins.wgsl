// Compute entry points with structure parameters of built-in values
// (§Built-in Inputs and Outputs, second form), mixed with plain ones; a
// structure of only uniform built-ins is uniform (§Uniformity Rules for
// Expressions), so the barrier under it is valid.
enable subgroups;
struct In {
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) li: u32,
  @builtin(subgroup_invocation_id) sid: u32,
}
struct U { @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
  @builtin(subgroup_size) ss: u32, @builtin(num_subgroups) ns: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(in: In, u: U, @builtin(local_invocation_id) lid: vec3u, @builtin(subgroup_id) sg: u32) {
  if (u.wid.x == 0u) {
    workgroupBarrier();
  }
  out[in.gid.x] = in.li + in.sid + lid.x + u.ss + u.ns + sg + u.nwg.x;
}
