// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: an assignment a non-uniform continue may
// skip.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  for (var k = 0u; k < 4u; k++) { if (i == k) { continue; } x = 1u; }
  if (x == 0u) { workgroupBarrier(); }
}
