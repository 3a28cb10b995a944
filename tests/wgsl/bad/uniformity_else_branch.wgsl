// expect: 5:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: both clauses of an if run under its condition.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { } else {
    workgroupBarrier();
  }
}
