// expect: 7:21 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: through `let p = &a[0]` only part of a
// is stored; the rest stays non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var a = array<u32, 2>(i, i);
  let p = &a[0]; *p = 0u;
  if (a[1] == 0u) { workgroupBarrier(); }
}
