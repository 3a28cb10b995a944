// expect: 6:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: subgroup_id is not uniform across the workgroup.
enable subgroups;
requires subgroup_id;
@compute @workgroup_size(64) fn main(@builtin(subgroup_id) v: u32) {
  if (v == 0u) { workgroupBarrier(); }
}
