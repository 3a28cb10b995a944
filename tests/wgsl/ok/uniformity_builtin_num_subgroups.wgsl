// §Uniformity Rules for Expressions: num_subgroups is a uniform built-in value in a compute shader.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(num_subgroups) v: u32) {
  if (v == 32u) { workgroupBarrier(); }
}
