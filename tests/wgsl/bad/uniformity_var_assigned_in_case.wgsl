// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: assigned in one clause of a switch on a
// non-uniform selector.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  switch i { case 0u { x = 1u; } default { } }
  if (x == 0u) { workgroupBarrier(); }
}
