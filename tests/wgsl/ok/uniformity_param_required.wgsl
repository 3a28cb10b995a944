// §Uniformity Rules for Function Calls: ParameterRequiredToBeUniform is met by a
// uniform argument.
fn f(c: bool) {
  if (c) {
    workgroupBarrier();
  }
}
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  f(g.x == 0u);
}
