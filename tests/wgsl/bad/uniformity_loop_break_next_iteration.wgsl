// expect: 6:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: CF' -> CF1: a non-uniform break at the end of
// one iteration makes the start of the next one non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    workgroupBarrier();
    if (i == 0u) { break; }
  }
}
