// expect: 9:11 'wait_if' must only be called from uniform control flow
// §Uniformity Analysis: a value read through a pointer parameter carries the
// uniformity of what the caller passed.
fn wait_if(p: ptr<function, u32>) {
  if (*p > 0u) { workgroupBarrier(); }
}
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var v = i;
  wait_if(&v);
}
