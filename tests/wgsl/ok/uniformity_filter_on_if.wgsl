// §Diagnostic Filtering: @diagnostic before an if covers its condition and all its clauses.
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  @diagnostic(off, derivative_uniformity)
  if (x > 0.0) { return vec4f(dpdx(x)); } else if (x < -1.0) { return vec4f(dpdy(x)); }
  return vec4f();
}
