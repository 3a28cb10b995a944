// expect: 5:31 note: 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: an info filter reports the diagnostic as a note; the module is valid.
diagnostic(info, derivative_uniformity);
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  return vec4f();
}
