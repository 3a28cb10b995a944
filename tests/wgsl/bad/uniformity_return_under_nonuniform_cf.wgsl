// expect: 6:21 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: Result -> CF: a value returned from non-uniform
// control flow is non-uniform even when it is a constant.
fn f(x: u32) -> u32 { if (x == 0u) { return 1u; } return 2u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (f(i) == 1u) { workgroupBarrier(); }
}
