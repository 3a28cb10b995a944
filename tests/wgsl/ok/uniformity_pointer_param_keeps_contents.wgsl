// §Function-scope Variable Value Analysis: uniform contents, uniform condition.
fn maybe_set(p: ptr<function, u32>, c: bool) { if (c) { *p = 1u; } }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var x = g.y; maybe_set(&x, g.x == 0u);
  if (x == 0u) { workgroupBarrier(); }
}
