// expect: 5:35 needs a sampler_comparison
@group(0) @binding(0) var t: texture_depth_2d;
@group(0) @binding(1) var s: sampler;
@fragment fn main() -> @location(0) vec4f {
  let d = textureSampleCompare(t, s, vec2f(0.5), 0.5);
  return vec4f(d);
}
