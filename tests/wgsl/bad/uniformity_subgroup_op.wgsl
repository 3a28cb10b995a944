// expect: 5:22 subgroup_uniformity
// §Uniformity Analysis (subgroup_uniformity): subgroup operations in non-uniform control flow.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = subgroupAdd(i); }
}
