// expect: 7:20 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: assigning one component keeps the
// non-uniformity of the rest of the variable (components are not tracked apart).
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var v = vec2u(i, 0u);
  v.x = 0u;
  if (v.x == 0u) { workgroupBarrier(); }
}
