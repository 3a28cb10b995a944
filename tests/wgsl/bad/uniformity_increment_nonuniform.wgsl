// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: an increment is an assignment (LHSValue) under
// the non-uniform condition.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  if (i == 0u) { k++; }
  if (k == 0u) { workgroupBarrier(); }
}
