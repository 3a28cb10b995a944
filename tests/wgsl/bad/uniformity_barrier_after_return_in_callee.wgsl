// expect: 6:9 'early' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: a callee whose barrier follows a return under
// a parameter-dependent condition requires that parameter to be uniform.
fn early(i: u32) { if (i == 0u) { return; } workgroupBarrier(); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  early(i);
}
