// expect: 6:22 warning: 'subgroupAdd' must only be called from uniform control flow (subgroup_uniformity)
// §Filterable Triggering Rules: subgroup_uniformity is filterable like derivative_uniformity.
enable subgroups;
diagnostic(warning, subgroup_uniformity);
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = subgroupAdd(i); }
}
