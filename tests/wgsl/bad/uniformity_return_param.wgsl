// expect: 6:25 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: ParameterReturnContentsRequiredToBeUniform:
// the result depends on the argument.
fn twice(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (twice(i) == 0u) { workgroupBarrier(); }
}
