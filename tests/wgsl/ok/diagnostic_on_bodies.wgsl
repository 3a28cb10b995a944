// §Diagnostic Filtering: a diagnostic attribute on a compound statement's
// body (if/else, switch case, loop, function body) filters the triggering
// rule inside that body; here derivative_uniformity becomes a warning.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) x: f32) {
  if (x > 0.0) @diagnostic(warning, derivative_uniformity) {
    _ = textureSample(t, s, vec2f(0.0));
  }
  switch (i32(x)) {
    case 0 @diagnostic(off, derivative_uniformity) { _ = dpdx(x); }
    default {}
  }
  loop @diagnostic(info, derivative_uniformity) {
    _ = dpdy(x);
    continuing { break if x > 0.0; }
  }
}
