// §Uniformity Rules for Function Calls: the same helper given a uniform delta.
enable subgroups;
fn h(d: u32) -> u32 { return subgroupShuffleUp(1u, d); }
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  _ = h(n.x);
}
