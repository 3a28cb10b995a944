// §Uniformity Rules for Function Calls: with the helper's site filtered off, the call
// site tag is CallSiteNoRestriction.
@diagnostic(off, derivative_uniformity)
fn helper(x: f32) -> f32 { return dpdx(x); }
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(helper(x)); }
  return vec4f();
}
