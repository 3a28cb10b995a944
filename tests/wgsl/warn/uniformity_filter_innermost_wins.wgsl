// expect: 8:64 warning: 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: the spec's example: the nearest enclosing filter (warning)
// wins over the global one (off).
diagnostic(off, derivative_uniformity);
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  else {
    @diagnostic(warning, derivative_uniformity) { return vec4f(dpdx(x)); }
  }
}
