// expect: 5:3 'discard' is only allowed in fragment shaders
// §Discard Statement: discard must only be used in a fragment shader stage;
// a helper reached from a compute entry point is in the compute stage.
fn helper() {
  discard;
}
@compute @workgroup_size(1) fn main() {
  helper();
}
