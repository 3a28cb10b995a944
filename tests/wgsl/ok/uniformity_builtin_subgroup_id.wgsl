// §Uniformity Rules for Expressions: at subgroup scope subgroup_id is uniform, so a
// subgroup operation may depend on it (a barrier may not: bad/uniformity_builtin_subgroup_id).
enable subgroups;
requires subgroup_id;
@compute @workgroup_size(64) fn main(@builtin(subgroup_id) v: u32) {
  if (v == 0u) { _ = subgroupAdd(1u); }
}
