// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a uniform value assigned under a
// non-uniform condition gives the variable a non-uniform value after the if.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  if (i == 0u) { x = 1u; }
  if (x == 0u) { workgroupBarrier(); }
}
