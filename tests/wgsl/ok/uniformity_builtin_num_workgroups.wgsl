// §Uniformity Rules for Expressions: num_workgroups is a uniform built-in value.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) v: vec3u) {
  if (v.y == 0u) { workgroupBarrier(); }
}
