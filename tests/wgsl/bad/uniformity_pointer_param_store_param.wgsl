// expect: 7:9 'f' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: the barrier depends on *p, which holds the
// parameter i: i is ParameterRequiredToBeUniform.
fn f(p: ptr<function, u32>, i: u32) { *p = i; if (*p == 0u) { workgroupBarrier(); } }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  f(&x, i);
}
