// §Uniformity Rules for Statements: the same with a uniform continue.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  loop {
    if (g.x == 0u) { continue; }
    continuing { workgroupBarrier(); break if true; }
  }
}
