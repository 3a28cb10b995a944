// §Uniformity Rules for Function Calls: at subgroup scope subgroupAdd,
// subgroupBroadcastFirst and subgroupBallot of uniform values are uniform
// (function tag NoRestriction), so subgroup operations may depend on them.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (subgroupAdd(1u) == 64u) { _ = subgroupMax(2u); }
  if (subgroupBroadcastFirst(g.x) == 0u) { _ = subgroupAdd(3u); }
  if (subgroupBallot(true).x == 1u) { _ = subgroupAny(true); }
}
