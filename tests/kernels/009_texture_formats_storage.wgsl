// 009_texture_formats_storage: textureStore of four texels into a 4x1 storage
// texture of every storage format that needs "texture-formats-tier1",
// "bgra8unorm-storage" or (rg32*) a core device; four storage textures per
// entry point (maxStorageTexturesPerShaderStage). Texel i gets value i of
// its sampled type below.

@group(0) @binding(0) var s_r8unorm: texture_storage_2d<r8unorm, write>;
@group(0) @binding(1) var s_r8snorm: texture_storage_2d<r8snorm, write>;
@group(0) @binding(2) var s_r8uint: texture_storage_2d<r8uint, write>;
@group(0) @binding(3) var s_r8sint: texture_storage_2d<r8sint, write>;
@group(0) @binding(4) var s_rg8unorm: texture_storage_2d<rg8unorm, write>;
@group(0) @binding(5) var s_rg8snorm: texture_storage_2d<rg8snorm, write>;
@group(0) @binding(6) var s_rg8uint: texture_storage_2d<rg8uint, write>;
@group(0) @binding(7) var s_rg8sint: texture_storage_2d<rg8sint, write>;
@group(0) @binding(8) var s_r16unorm: texture_storage_2d<r16unorm, write>;
@group(0) @binding(9) var s_r16snorm: texture_storage_2d<r16snorm, write>;
@group(0) @binding(10) var s_r16uint: texture_storage_2d<r16uint, write>;
@group(0) @binding(11) var s_r16sint: texture_storage_2d<r16sint, write>;
@group(0) @binding(12) var s_r16float: texture_storage_2d<r16float, write>;
@group(0) @binding(13) var s_rg16unorm: texture_storage_2d<rg16unorm, write>;
@group(0) @binding(14) var s_rg16snorm: texture_storage_2d<rg16snorm, write>;
@group(0) @binding(15) var s_rg16uint: texture_storage_2d<rg16uint, write>;
@group(0) @binding(16) var s_rg16sint: texture_storage_2d<rg16sint, write>;
@group(0) @binding(17) var s_rg16float: texture_storage_2d<rg16float, write>;
@group(0) @binding(18) var s_rgba16unorm: texture_storage_2d<rgba16unorm, write>;
@group(0) @binding(19) var s_rgba16snorm: texture_storage_2d<rgba16snorm, write>;
@group(0) @binding(20) var s_rg32uint: texture_storage_2d<rg32uint, write>;
@group(0) @binding(21) var s_rg32sint: texture_storage_2d<rg32sint, write>;
@group(0) @binding(22) var s_rg32float: texture_storage_2d<rg32float, write>;
@group(0) @binding(23) var s_bgra8unorm: texture_storage_2d<bgra8unorm, write>;
@group(0) @binding(24) var s_rgb10a2uint: texture_storage_2d<rgb10a2uint, write>;
@group(0) @binding(25) var s_rgb10a2unorm: texture_storage_2d<rgb10a2unorm, write>;
@group(0) @binding(26) var s_rg11b10ufloat: texture_storage_2d<rg11b10ufloat, write>;

fn val_f(i: u32) -> vec4f {
  switch i {
    case 0u: { return vec4f(-0.5, 0.25, 1.5, 0.75); }
    case 1u: { return vec4f(0.1875, -2.0, 0.5625, 1.0); }
    case 2u: { return vec4f(0.3125, 0.6875, -0.3125, 0.0); }
    default: { return vec4f(49152.0, 0x1p-19, 0.015625, -0.0); }
  }
}

fn val_u(i: u32) -> vec4u {
  switch i {
    case 0u: { return vec4u(0u, 1u, 255u, 256u); }
    case 1u: { return vec4u(1023u, 1024u, 65535u, 65536u); }
    case 2u: { return vec4u(0xffffffffu, 3u, 4u, 2u); }
    default: { return vec4u(12345u, 0x80000000u, 7u, 100u); }
  }
}

fn val_i(i: u32) -> vec4i {
  switch i {
    case 0u: { return vec4i(-1, 0, 127, 128); }
    case 1u: { return vec4i(-128, -129, 32767, 32768); }
    case 2u: { return vec4i(-32768, -32769, i32(-2147483648), 2147483647); }
    default: { return vec4i(-5, 5, 1000, -1000); }
  }
}

@compute @workgroup_size(4) fn store0(@builtin(local_invocation_index) i: u32) {
  textureStore(s_r8unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_r8snorm, vec2u(i, 0u), val_f(i));
  textureStore(s_r8uint, vec2u(i, 0u), val_u(i));
  textureStore(s_r8sint, vec2u(i, 0u), val_i(i));
}

@compute @workgroup_size(4) fn store1(@builtin(local_invocation_index) i: u32) {
  textureStore(s_rg8unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rg8snorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rg8uint, vec2u(i, 0u), val_u(i));
  textureStore(s_rg8sint, vec2u(i, 0u), val_i(i));
}

@compute @workgroup_size(4) fn store2(@builtin(local_invocation_index) i: u32) {
  textureStore(s_r16unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_r16snorm, vec2u(i, 0u), val_f(i));
  textureStore(s_r16uint, vec2u(i, 0u), val_u(i));
  textureStore(s_r16sint, vec2u(i, 0u), val_i(i));
}

@compute @workgroup_size(4) fn store3(@builtin(local_invocation_index) i: u32) {
  textureStore(s_r16float, vec2u(i, 0u), val_f(i));
  textureStore(s_rg16unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rg16snorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rg16uint, vec2u(i, 0u), val_u(i));
}

@compute @workgroup_size(4) fn store4(@builtin(local_invocation_index) i: u32) {
  textureStore(s_rg16sint, vec2u(i, 0u), val_i(i));
  textureStore(s_rg16float, vec2u(i, 0u), val_f(i));
  textureStore(s_rgba16unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rgba16snorm, vec2u(i, 0u), val_f(i));
}

@compute @workgroup_size(4) fn store5(@builtin(local_invocation_index) i: u32) {
  textureStore(s_rg32uint, vec2u(i, 0u), val_u(i));
  textureStore(s_rg32sint, vec2u(i, 0u), val_i(i));
  textureStore(s_rg32float, vec2u(i, 0u), val_f(i));
  textureStore(s_bgra8unorm, vec2u(i, 0u), val_f(i));
}

@compute @workgroup_size(4) fn store6(@builtin(local_invocation_index) i: u32) {
  textureStore(s_rgb10a2uint, vec2u(i, 0u), val_u(i));
  textureStore(s_rgb10a2unorm, vec2u(i, 0u), val_f(i));
  textureStore(s_rg11b10ufloat, vec2u(i, 0u), val_f(i));
}
