// §Diagnostic Filtering: @diagnostic before a switch and before its body (an
// integer fragment input is @interpolate(flat), §Interpolation).
@fragment fn f(@location(0) @interpolate(flat) x: i32) -> @location(0) vec4f {
  @diagnostic(off, derivative_uniformity)
  switch x { case 0 { return vec4f(dpdx(1.0)); } default { } }
  switch x @diagnostic(off, derivative_uniformity) { case 1 { return vec4f(dpdy(1.0)); } default { } }
  return vec4f();
}
