// §Uniformity Rules for Statements: the same loop with a uniform return.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  for (var k = 0u; k < 4u; k++) {
    if (g.x == k) { return; }
  }
  workgroupBarrier();
}
