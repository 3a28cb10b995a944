// expect: 6:28 'textureSampleBias' must only be called from uniform control flow (derivative_uniformity)
// §Filterable Triggering Rules: textureSampleBias computes derivatives.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn f(@location(0) uv: vec2f) -> @location(0) vec4f {
  if (uv.x > 0.5) { return textureSampleBias(t, s, uv, 1.0); }
  return vec4f();
}
