// expect: 4:31 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: Result -> {V1, V2} for a binary operator.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  if ((g.x + i) * 0u == 0u) { workgroupBarrier(); }
}
