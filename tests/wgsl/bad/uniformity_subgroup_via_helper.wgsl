// expect: 7:22 'helper' must only be called from uniform control flow (subgroup_uniformity)
// §Uniformity Rules for Function Calls: the subgroup scope's call site tag carries to
// the caller.
enable subgroups;
fn helper() -> u32 { return subgroupAdd(1u); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = helper(); }
}
