// expect: 5:15 must only be called from uniform control flow
// §Uniformity Analysis: a switch on a non-uniform selector makes its clauses non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  switch i {
    case 0u { workgroupBarrier(); }
    default { }
  }
}
