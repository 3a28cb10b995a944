// §Uniformity Rules for Statements: with a uniform break the next iteration is uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  loop {
    workgroupBarrier();
    if (g.x == 0u) { break; }
  }
}
