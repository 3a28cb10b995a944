// §Uniformity Rules for Statements: a loop body with behavior {Break} runs once: no
// CF' -> CF1 edge, so its non-uniform breaks do not reach the barrier before them.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    workgroupBarrier();
    if (i == 0u) { break; } else { break; }
  }
}
