// §Filterable Triggering Rules: textureSampleLevel computes no derivative and may run
// in non-uniform control flow.
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn f(@location(0) uv: vec2f) -> @location(0) vec4f {
  if (uv.x > 0.5) { return textureSampleLevel(t, s, uv, 0.0); }
  return vec4f();
}
