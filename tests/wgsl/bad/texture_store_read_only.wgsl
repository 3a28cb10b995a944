// expect: 4:3 textureStore needs a storage texture with write or read_write access
@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, read>;
@compute @workgroup_size(1) fn main() {
  textureStore(t, vec2i(0, 0), vec4f(1.0));
}
