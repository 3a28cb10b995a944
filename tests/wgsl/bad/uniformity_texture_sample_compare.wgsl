// expect: 6:34 'textureSampleCompare' must only be called from uniform control flow (derivative_uniformity)
// §Filterable Triggering Rules: textureSampleCompare computes derivatives.
@group(0) @binding(0) var t: texture_depth_2d;
@group(0) @binding(1) var s: sampler_comparison;
@fragment fn f(@location(0) uv: vec2f) -> @location(0) vec4f {
  if (uv.x > 0.5) { return vec4f(textureSampleCompare(t, s, uv, 0.5)); }
  return vec4f();
}
