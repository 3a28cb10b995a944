// expect: 6:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: with {Continue} in the body's behavior the next
// iteration starts at the end of this one (CF' -> CF2), which is non-uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    workgroupBarrier();
    if (i == 0u) { continue; } else { continue; }
    continuing { break if true; }
  }
}
