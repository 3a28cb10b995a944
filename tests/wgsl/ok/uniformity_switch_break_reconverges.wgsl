// §Uniformity Rules for Statements: a break leaves only the switch; the switch's
// behavior is {Next}, so control flow is uniform again after it.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  switch i {
    case 0u { if (i == 0u) { break; } }
    default { }
  }
  workgroupBarrier();
}
