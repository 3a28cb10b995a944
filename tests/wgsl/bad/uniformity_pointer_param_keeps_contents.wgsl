// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a callee that may not store keeps the
// caller's non-uniform contents.
fn maybe_set(p: ptr<function, u32>, c: bool) { if (c) { *p = 1u; } }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  var x = i; maybe_set(&x, g.x == 0u);
  if (x == 0u) { workgroupBarrier(); }
}
