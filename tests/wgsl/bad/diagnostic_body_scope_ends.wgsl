// expect: 9:9 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: the filter of a body attribute covers that body
// only; the second non-uniform dpdx is outside it and stays an error.
@fragment fn main(@location(0) x: f32) {
  if (x > 0.0) @diagnostic(off, derivative_uniformity) {
    _ = dpdx(x);
  }
  if (x > 1.0) {
    _ = dpdx(x);
  }
}
