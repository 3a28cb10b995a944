// §Uniformity Rules for Expressions: subgroup_size is a uniform built-in value in a compute shader.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(subgroup_size) v: u32) {
  if (v == 32u) { workgroupBarrier(); }
}
