// §Function Tags and Parameter Tags: the same helper given a uniform view; its
// result is uniform.
var<workgroup> w: array<u32, 64>;
fn load(p: ptr<workgroup, u32>) -> u32 { return workgroupUniformLoad(p); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (load(&w[0]) == 0u) { workgroupBarrier(); }
}
