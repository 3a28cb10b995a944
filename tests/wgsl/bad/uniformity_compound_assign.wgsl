// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: `x += e` reads x and e.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  x += i;
  x *= 2u;
  if (x == 0u) { workgroupBarrier(); }
}
