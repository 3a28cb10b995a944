// §for Statement: the same for loop with a uniform bound.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  for (var k = 0u; k < n.x; k++) {
    workgroupBarrier();
  }
}
