// expect: 5:22 must only be called from uniform control flow
// §Uniformity Analysis: workgroupUniformLoad is a barrier too.
var<workgroup> w: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = workgroupUniformLoad(&w); }
}
