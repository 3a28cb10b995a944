// expect: 6:44 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: at workgroup scope even subgroupBroadcastFirst
// of a uniform value is ReturnValueMayBeNonUniform.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (subgroupBroadcastFirst(g.x) == 0u) { workgroupBarrier(); }
}
