// expect: 5:22 'subgroupAdd' must only be called from uniform control flow (subgroup_uniformity)
// §Uniformity Rules for Expressions: subgroup_invocation_id is non-uniform at every scope.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(subgroup_invocation_id) v: u32) {
  if (v == 0u) { _ = subgroupAdd(1u); }
}
