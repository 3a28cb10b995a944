// §Uniformity Rules for Statements: a continue under a uniform condition.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  for (var k = 0u; k < 4u; k++) {
    if (g.x == k) { continue; }
    workgroupBarrier();
  }
}
