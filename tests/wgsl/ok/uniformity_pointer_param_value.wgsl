// §Uniformity Rules for Function Calls: ParameterContentsRequiredToBeUniform met
// by a variable holding a uniform value.
fn wait_if(p: ptr<function, u32>) {
  if (*p > 0u) { workgroupBarrier(); }
}
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var v = g.x;
  wait_if(&v);
}
