// expect: 8:12 'load' must only be called from uniform control flow
// §Function Tags and Parameter Tags: ParameterRequiredToBeUniform for a pointer
// means its memory view must be uniform: passing &w[i] to a helper that calls
// workgroupUniformLoad(p) chooses a non-uniform element.
var<workgroup> w: array<u32, 64>;
fn load(p: ptr<workgroup, u32>) -> u32 { return workgroupUniformLoad(p); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = load(&w[i]);
}
