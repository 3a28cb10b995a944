// §Diagnostic Filtering: different severities on nested ranges do not conflict.
@diagnostic(off, derivative_uniformity)
@fragment fn f() -> @location(0) vec4f {
  @diagnostic(error, derivative_uniformity) { }
  return vec4f();
}
