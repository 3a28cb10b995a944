// Writes one texel of a bgra8unorm storage texture, a storage format only
// with the device feature "bgra8unorm-storage".
@group(0) @binding(0) var img: texture_storage_2d<bgra8unorm, write>;

@compute @workgroup_size(1) fn main() {
  textureStore(img, vec2u(0u), vec4f(1.0, 0.5, 0.0, 1.0));
}
