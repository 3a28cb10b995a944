// §Uniformity Rules for Function Calls: a call reconverges; a callee's non-uniform
// return does not make the caller's later code non-uniform.
fn early(i: u32) { if (i == 0u) { return; } }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  early(i);
  workgroupBarrier();
}
