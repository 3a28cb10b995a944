// expect: 8:3 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: a loop with Return in its body's behavior ends in
// CF1, so code after it is non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < 4u; k++) {
    if (i == k) { return; }
  }
  workgroupBarrier();
}
