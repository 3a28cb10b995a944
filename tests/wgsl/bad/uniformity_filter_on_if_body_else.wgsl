// expect: 8:12 'textureSample' must only be called from uniform control flow (derivative_uniformity)
// §Diagnostic Filtering: a filter on the then-body does not cover the else clause.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
var<private> d: f32;
fn helper() -> vec4<f32> {
  if (d < 0.5) @diagnostic(off, derivative_uniformity) { return vec4(1.0); } else {
    return textureSample(t, s, vec2(0, 0));
  }
}
@fragment fn main() -> @location(0) vec4f { return helper(); }
