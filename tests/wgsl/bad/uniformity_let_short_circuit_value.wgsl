// expect: 5:12 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: the value of e1 && e2 is V2, which depends on V1.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let b = (i == 0u) && true;
  if (b) { workgroupBarrier(); }
}
