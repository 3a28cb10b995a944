// expect: 6:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: CFend -> V for `break if`: a non-uniform
// condition makes the next iteration non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    workgroupBarrier();
    continuing { break if i == 0u; }
  }
}
