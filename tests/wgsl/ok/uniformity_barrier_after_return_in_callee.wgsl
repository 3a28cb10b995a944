// §Uniformity Rules for Function Calls: the same callee with a uniform argument.
fn early(i: u32) { if (i == 0u) { return; } workgroupBarrier(); }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  early(g.x);
}
