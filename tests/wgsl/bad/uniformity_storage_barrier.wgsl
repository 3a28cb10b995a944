// expect: 4:20 must only be called from uniform control flow
// §Uniformity Analysis: storageBarrier also needs uniform control flow.
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x == 0u) { storageBarrier(); }
}
