// §Diagnostic Filtering: @diagnostic before loop / while / for statements, before a
// loop body, and on a continuing statement.
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  var r = 0.0;
  @diagnostic(off, derivative_uniformity) loop { if (x > r) { break; } r += dpdx(x); }
  @diagnostic(off, derivative_uniformity) while (x > r) { r += dpdx(x); }
  @diagnostic(off, derivative_uniformity) for (var i = 0.0; i < x; i += 1.0) { r += dpdx(x); }
  for (var i = 0.0; i < x; i += 1.0) @diagnostic(off, derivative_uniformity) { r += dpdy(x); }
  loop {
    if (x > r) { break; }
    continuing @diagnostic(off, derivative_uniformity) { r += fwidth(x); }
  }
  return vec4f(r);
}
