// §Uniformity Rules for Function Calls: the same condition without the broadcast.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (g.x == 0u) { workgroupBarrier(); }
}
