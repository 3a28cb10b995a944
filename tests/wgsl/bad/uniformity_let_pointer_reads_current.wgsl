// expect: 8:19 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a load through `let p = &x` sees x's value
// at the load (Vout(prev) of x), not at the let.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  let p = &x;
  x = i;
  if (*p == 0u) { workgroupBarrier(); }
}
