// Reads one texel of a depth texture bound as texture_2d<f32>
// (sampleType unfilterable-float).
@group(0) @binding(0) var img: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> o: f32;

@compute @workgroup_size(1) fn main() {
  o = textureLoad(img, vec2u(0u), 0).x;
}
