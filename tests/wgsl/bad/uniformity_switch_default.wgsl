// expect: 6:15 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: a default clause is analysed like any case clause.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  switch i {
    case 0u { }
    default { workgroupBarrier(); }
  }
}
