// §Uniformity Rules for Function Calls: the result of a call with uniform arguments
// is uniform; a parameter the result does not depend on does not matter.
fn pick(x: u32, y: u32) -> u32 { _ = y; return x * 2u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  if (pick(g.x, i) == 0u) { workgroupBarrier(); }
}
