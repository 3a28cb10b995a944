// expect: 7:18 must only be called from uniform control flow
// §Uniformity Analysis: a private variable is per invocation; written with
// a non-uniform value it stays non-uniform.
var<private> p: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  p = i;
  if (p == 0u) { workgroupBarrier(); }
}
