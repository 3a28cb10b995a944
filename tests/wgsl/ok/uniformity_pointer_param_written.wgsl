// §Function-scope Variable Value Analysis: the same callee storing a uniform value.
fn store(p: ptr<function, u32>, v: u32) { *p = v; }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var x = 0u; store(&x, g.x);
  if (x == 0u) { workgroupBarrier(); }
}
