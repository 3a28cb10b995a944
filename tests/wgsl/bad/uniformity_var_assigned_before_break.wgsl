// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a variable assigned just before a
// non-uniform break leaves the loop non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  loop { if (i == 0u) { x = 1u; break; } break; }
  if (x == 0u) { workgroupBarrier(); }
}
