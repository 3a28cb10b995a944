// §Diagnostic Filtering: the spec's own example, a filter on the body of an if.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
var<private> d: f32;
fn helper() -> vec4<f32> {
  if (d < 0.5) @diagnostic(off, derivative_uniformity) {
    return textureSample(t, s, vec2(0, 0));
  }
  return vec4(0.0);
}
@fragment fn main() -> @location(0) vec4f { return helper(); }
