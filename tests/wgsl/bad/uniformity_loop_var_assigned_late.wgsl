// expect: 8:7 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: a variable assigned late in the body is
// seen by the next iteration (the loop's placeholder for it).
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var c = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (c == 0u) {
      workgroupBarrier();
    }
    c = i;
  }
}
