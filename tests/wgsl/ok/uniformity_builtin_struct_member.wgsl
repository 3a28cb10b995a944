// §Uniformity Rules for Expressions: the uniform built-in as its own parameter.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u, @builtin(local_invocation_index) i: u32) {
  if (g.x == 0u) { workgroupBarrier(); }
}
