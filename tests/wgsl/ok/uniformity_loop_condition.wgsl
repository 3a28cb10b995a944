// §Uniformity Rules for Statements: a while loop whose condition is uniform.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  var k = 0u;
  while (k < n.x) {
    workgroupBarrier();
    k++;
  }
}
