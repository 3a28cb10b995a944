// §Uniformity Rules for Statements: after a return under a uniform condition the
// rest of the function stays uniform.
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  if (n.x > 3u) { return; }
  workgroupBarrier();
}
