// expect: 7:14 'helper' must only be called from uniform control flow (derivative_uniformity)
// §Uniformity Rules for Function Calls: a parameter that decides whether dpdx runs is
// ParameterRequiredToBeUniform under derivative_uniformity.
fn helper(c: bool) -> f32 { if (c) { return dpdx(1.0); } return 0.0; }
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  var r = 0.0;
  r = helper(x > 0.0);
  return vec4f(r);
}
