// expect: 5:31 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: an explicit error filter keeps the default severity.
diagnostic(error, derivative_uniformity);
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  return vec4f();
}
