// expect: 8:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a store under a condition on another
// parameter: the contents on return depend on that parameter and on the old contents.
fn maybe_set(p: ptr<function, u32>, c: bool) { if (c) { *p = 1u; } }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  maybe_set(&x, i == 0u);
  if (x == 0u) { workgroupBarrier(); }
}
