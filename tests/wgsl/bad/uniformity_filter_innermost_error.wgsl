// expect: 7:11 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: an inner error filter overrides an outer off filter.
@diagnostic(off, derivative_uniformity)
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) {
    @diagnostic(error, derivative_uniformity) {
      _ = dpdx(x);
    }
  }
  return vec4f();
}
