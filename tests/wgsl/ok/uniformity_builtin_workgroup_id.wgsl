// §Uniformity Rules for Expressions: workgroup_id is a uniform built-in value.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) v: vec3u) {
  if (v.y == 0u) { workgroupBarrier(); }
}
