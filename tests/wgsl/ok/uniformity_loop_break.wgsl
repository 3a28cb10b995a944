// §Uniformity Rules for Statements: a break under a uniform condition keeps the
// loop body uniform.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  var k = 0u;
  loop {
    if (k == n.x) { break; }
    k++;
    workgroupBarrier();
  }
}
