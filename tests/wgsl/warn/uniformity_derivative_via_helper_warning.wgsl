// expect: 7:31 warning: 'helper' must only be called from uniform control flow (derivative_uniformity)
// §Uniformity Rules for Function Calls: the call site tag keeps the severity of the
// filter at the triggering location (the helper's dpdx): a warning at the caller.
@diagnostic(warning, derivative_uniformity)
fn helper(x: f32) -> f32 { return dpdx(x); }
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(helper(x)); }
  return vec4f();
}
