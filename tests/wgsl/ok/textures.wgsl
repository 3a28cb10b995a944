@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var st: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(1) fn main() {
  let dims: vec2<u32> = textureDimensions(t);
  let c = textureLoad(t, vec2i(0), 0) + textureSampleLevel(t, s, vec2f(0.5), 0.0);
  textureStore(st, vec2u(0u), c);
  _ = dims;
}
