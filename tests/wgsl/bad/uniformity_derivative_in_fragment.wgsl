// expect: 4:31 derivative_uniformity
// §Uniformity Analysis (derivative_uniformity): dpdx in non-uniform control flow.
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { return vec4f(dpdx(x)); }
  return vec4f();
}
