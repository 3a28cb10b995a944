// expect: 5:38 'workgroupUniformLoad' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: workgroupUniformLoad's own call must be uniform.
var<workgroup> w: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < i; k++) { _ = workgroupUniformLoad(&w); }
}
