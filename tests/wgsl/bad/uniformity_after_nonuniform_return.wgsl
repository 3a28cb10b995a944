// expect: 6:3 must only be called from uniform control flow
// §Uniformity Analysis: after a return under a non-uniform condition, the
// rest of the function is non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i > 3u) { return; }
  workgroupBarrier();
}
