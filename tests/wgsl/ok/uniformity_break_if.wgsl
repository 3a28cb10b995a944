// §Uniformity Rules for Statements: `break if` with a uniform condition.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  loop {
    workgroupBarrier();
    continuing { break if g.x == 0u; }
  }
}
