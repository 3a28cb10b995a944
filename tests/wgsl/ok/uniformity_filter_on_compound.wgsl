// §Diagnostic Filtering: @diagnostic at the start of a compound statement covers it.
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) {
    @diagnostic(off, derivative_uniformity) {
      return vec4f(dpdx(x));
    }
  }
  return vec4f();
}
