// §Uniformity Rules for Function Calls: CallSiteRequiredToBeUniform is met in
// uniform control flow.
fn sync() {
  workgroupBarrier();
}
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (g.x > 3u) {
    sync();
  }
}
