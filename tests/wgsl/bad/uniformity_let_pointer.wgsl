// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Pointers: a store through a let-bound pointer changes the
// variable it points to.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  let p = &x; *p = i;
  if (x == 0u) { workgroupBarrier(); }
}
