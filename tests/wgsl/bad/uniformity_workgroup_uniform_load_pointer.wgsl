// expect: 7:28 the pointer of 'workgroupUniformLoad' must be a uniform value
// §Uniformity Rules for Function Calls: workgroupUniformLoad's `p` must be uniform
// (ParameterRequiredToBeUniform.error): here it depends on a non-uniform index.
var<workgroup> w: array<u32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = workgroupUniformLoad(&w)[i];
  _ = workgroupUniformLoad(&w[i]);
}
