// expect: 7:18 'outer' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: a function calling a function with
// CallSiteRequiredToBeUniform gets that call site tag too.
fn inner() { workgroupBarrier(); }
fn outer() { inner(); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { outer(); }
}
