// expect: 6:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: a let carries its initializer's uniformity.
override limit: u32 = 4u;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let x = i + limit;
  if (x == 0u) { workgroupBarrier(); }
}
