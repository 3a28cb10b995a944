// expect: 7:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: a continue inside a switch continues the loop:
// the switch's behavior {Continue, Next} ends in CFend, which depends on the selector.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < 4u; k++) {
    switch i { case 0u { continue; } default { } }
    workgroupBarrier();
  }
}
