// expect: 8:31 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: a function's filter covers that function only.
@diagnostic(off, derivative_uniformity)
fn g(x: f32) -> f32 {
  return x;
}
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  return vec4f();
}
