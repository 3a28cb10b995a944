// expect: 4:43 conflicting diagnostic filters for 'derivative_uniformity'
// §Diagnostic Filtering: the same on a compound statement.
@fragment fn f() -> @location(0) vec4f {
  @diagnostic(off, derivative_uniformity) @diagnostic(error, derivative_uniformity) { }
  return vec4f();
}
