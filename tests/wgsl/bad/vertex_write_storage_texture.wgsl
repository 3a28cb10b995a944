// expect: 6:16 vertex entry point 'main' uses 't', a storage texture with write or read_write access (a vertex shader only reads its storage)
// §Address Spaces: a vertex shader accesses no write or read_write storage
// texture.
@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, write>;
@vertex fn main() -> @builtin(position) vec4f {
  textureStore(t, vec2u(), vec4f());
  return vec4f();
}
