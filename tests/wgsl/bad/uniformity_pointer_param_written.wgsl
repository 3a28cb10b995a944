// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a callee that stores a non-uniform value
// through a pointer parameter makes the caller's variable non-uniform.
fn store(p: ptr<function, u32>, v: u32) { *p = v; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u; store(&x, i);
  if (x == 0u) { workgroupBarrier(); }
}
