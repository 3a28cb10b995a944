// §Discard Statement: a helper with discard is fine when only fragment entry
// points reach it; the compute entry point here does not call it.
fn maybe_discard(x: f32) {
  if (x < 0.0) { discard; }
}
@fragment fn fs(@location(0) x: f32) -> @location(0) vec4f {
  maybe_discard(x);
  return vec4f(x);
}
@compute @workgroup_size(1) fn cs() {}
