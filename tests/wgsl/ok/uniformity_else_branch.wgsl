// §Uniformity Rules for Statements: workgroup_id is a uniform built-in value, so
// both clauses are uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (g.x == 0u) { } else {
    workgroupBarrier();
  }
}
