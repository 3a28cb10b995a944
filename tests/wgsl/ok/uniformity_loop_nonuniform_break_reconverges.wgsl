// §Uniformity Rules for Statements: a loop with behavior {Next} reconverges: after
// it, control flow is as uniform as before it.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    if (i == 0u) { break; }
  }
  workgroupBarrier();
}
