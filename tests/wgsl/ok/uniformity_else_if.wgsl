// §Uniformity Rules for Statements: with both conditions uniform every clause is uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u, @builtin(num_workgroups) n: vec3u) {
  if (g.x == 0u) { } else if (n.y == 1u) {
    workgroupBarrier();
  }
}
