// expect: 6:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: else-if is a nested if/else; its clause depends
// on the non-uniform second condition.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u, @builtin(local_invocation_index) i: u32) {
  if (g.x == 0u) { } else if (i == 1u) {
    workgroupBarrier();
  }
}
