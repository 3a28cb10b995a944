// expect: 7:5 'g' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: a parameter passed on to a parameter that
// must be uniform must be uniform too.
fn f(c: bool) { if (c) { workgroupBarrier(); } }
fn g(c: bool) { f(c); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  g(i == 0u);
}
