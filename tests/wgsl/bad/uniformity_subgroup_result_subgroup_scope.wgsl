// expect: 6:46 'subgroupMax' must only be called from uniform control flow (subgroup_uniformity)
// §Uniformity Rules for Function Calls: subgroupExclusiveAdd is not in the
// NoRestriction list: its result is non-uniform even at subgroup scope.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (subgroupExclusiveAdd(1u) == 64u) { _ = subgroupMax(2u); }
}
