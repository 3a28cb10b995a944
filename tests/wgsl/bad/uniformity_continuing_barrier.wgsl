// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: the continuing block runs at CF1, after the
// body's non-uniform continue.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    if (i == 0u) { continue; }
    continuing { workgroupBarrier(); break if true; }
  }
}
