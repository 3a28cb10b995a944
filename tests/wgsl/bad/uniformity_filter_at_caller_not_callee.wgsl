// expect: 6:71 'helper' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Processing: the triggering location is the derivative's call site in
// the helper, so a filter around the helper's call in the caller does not apply.
fn helper(x: f32) -> f32 { return dpdx(x); }
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) @diagnostic(off, derivative_uniformity) { return vec4f(helper(x)); }
  return vec4f();
}
