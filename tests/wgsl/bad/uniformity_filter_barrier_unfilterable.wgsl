// expect: 5:47 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: barriers' trigger has no name and cannot be
// filtered; `uniformity` is not a rule name (only a warning), so the error stays.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) @diagnostic(off, uniformity) { workgroupBarrier(); }
}
