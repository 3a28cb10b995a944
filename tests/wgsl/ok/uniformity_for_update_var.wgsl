// §for Statement: a uniform step keeps the loop uniform.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  for (var k = 0u; k < 4u; k += n.x) {
    workgroupBarrier();
  }
}
