// §Diagnostic Filtering: @diagnostic on a function declaration covers its body.
@diagnostic(off, derivative_uniformity)
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  return vec4f();
}
