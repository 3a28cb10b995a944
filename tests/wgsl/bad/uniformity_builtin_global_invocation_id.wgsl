// expect: 4:20 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: global_invocation_id is a non-uniform built-in value.
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) v: vec3u) {
  if (v.y == 0u) { workgroupBarrier(); }
}
