// expect: 6:31 'helper' must only be called from uniform control flow (derivative_uniformity)
// §Uniformity Rules for Function Calls: a helper calling dpdx gets
// CallSiteRequiredToBeUniform.error under derivative_uniformity.
fn helper(x: f32) -> f32 { return dpdx(x); }
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(helper(x)); }
  return vec4f();
}
