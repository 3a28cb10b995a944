// expect: 8:18 must only be called from uniform control flow
// note: 8:7 control flow depends on this possibly non-uniform value
// §Uniformity Analysis: a private variable is per invocation; written with
// a non-uniform value it stays non-uniform.
var<private> p: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  p = i;
  if (p == 0u) { workgroupBarrier(); }
}
