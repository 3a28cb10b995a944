// expect: 9:3 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: a switch whose behavior includes Return ends in
// CFend, which depends on the selector.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  switch i {
    case 0u { return; }
    default { }
  }
  workgroupBarrier();
}
