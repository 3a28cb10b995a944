// §Function-scope Variable Value Analysis: a callee that stores a uniform value
// through its pointer on every path: Value_return_i_contents reaches no parameter,
// so the caller's variable is uniform after the call, whatever it held before.
fn reset(p: ptr<function, u32>) { *p = 0u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = i;
  reset(&x);
  if (x == 0u) { workgroupBarrier(); }
}
