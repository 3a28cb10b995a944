// §Uniformity Rules for Statements: a break inside a switch leaves the switch only;
// the switch (behavior {Next}) reconverges, so the loop body stays uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    switch i { case 0u { break; } default { } }
    workgroupBarrier();
    break;
  }
}
