// §Function-scope Variable Value Analysis: the callee stores a constant before the load.
fn f(p: ptr<function, u32>) -> u32 { *p = 3u; return *p; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = i;
  if (f(&x) == 0u) { workgroupBarrier(); }
}
