// 009_texture_formats_sampled: textureLoad of the four texels of a 4x1
// texture of every sampled format a compute shader reads, written to fo[]
// (float formats) or io[] (integer formats, i32 as its bits); depth16unorm
// and stencil8 give the first component alone, the only one defined
// without the "texture-component-swizzle" feature.

@group(0) @binding(0) var t_r8unorm: texture_2d<f32>;
@group(0) @binding(1) var t_r8snorm: texture_2d<f32>;
@group(0) @binding(2) var t_rg8unorm: texture_2d<f32>;
@group(0) @binding(3) var t_rg8snorm: texture_2d<f32>;
@group(0) @binding(4) var t_r16float: texture_2d<f32>;
@group(0) @binding(5) var t_rg16float: texture_2d<f32>;
@group(0) @binding(6) var t_rg32float: texture_2d<f32>;
@group(0) @binding(7) var t_rgba8unorm_srgb: texture_2d<f32>;
@group(0) @binding(8) var t_bgra8unorm: texture_2d<f32>;
@group(0) @binding(9) var t_rgb10a2unorm: texture_2d<f32>;
@group(0) @binding(10) var t_rg11b10ufloat: texture_2d<f32>;
@group(0) @binding(11) var t_rgb9e5ufloat: texture_2d<f32>;
@group(0) @binding(12) var t_depth16unorm: texture_2d<f32>;
@group(0) @binding(13) var t_r8uint: texture_2d<u32>;
@group(0) @binding(14) var t_rg8uint: texture_2d<u32>;
@group(0) @binding(15) var t_r16uint: texture_2d<u32>;
@group(0) @binding(16) var t_rg16uint: texture_2d<u32>;
@group(0) @binding(17) var t_rg32uint: texture_2d<u32>;
@group(0) @binding(18) var t_rgb10a2uint: texture_2d<u32>;
@group(0) @binding(19) var t_stencil8: texture_2d<u32>;
@group(0) @binding(20) var t_r8sint: texture_2d<i32>;
@group(0) @binding(21) var t_rg8sint: texture_2d<i32>;
@group(0) @binding(22) var t_r16sint: texture_2d<i32>;
@group(0) @binding(23) var t_rg16sint: texture_2d<i32>;
@group(0) @binding(24) var t_rg32sint: texture_2d<i32>;
@group(0) @binding(25) var<storage, read_write> fo: array<vec4f, 52>;
@group(0) @binding(26) var<storage, read_write> io: array<vec4u, 48>;

@compute @workgroup_size(4) fn load_float(@builtin(local_invocation_index) i: u32) {
  let c = vec2u(i, 0u);
  fo[0u + i] = textureLoad(t_r8unorm, c, 0);
  fo[4u + i] = textureLoad(t_r8snorm, c, 0);
  fo[8u + i] = textureLoad(t_rg8unorm, c, 0);
  fo[12u + i] = textureLoad(t_rg8snorm, c, 0);
  fo[16u + i] = textureLoad(t_r16float, c, 0);
  fo[20u + i] = textureLoad(t_rg16float, c, 0);
  fo[24u + i] = textureLoad(t_rg32float, c, 0);
  fo[28u + i] = textureLoad(t_rgba8unorm_srgb, c, 0);
  fo[32u + i] = textureLoad(t_bgra8unorm, c, 0);
  fo[36u + i] = textureLoad(t_rgb10a2unorm, c, 0);
  fo[40u + i] = textureLoad(t_rg11b10ufloat, c, 0);
  fo[44u + i] = textureLoad(t_rgb9e5ufloat, c, 0);
  fo[48u + i] = vec4f(textureLoad(t_depth16unorm, c, 0).x, 0.0, 0.0, 0.0);
}

@compute @workgroup_size(4) fn load_int(@builtin(local_invocation_index) i: u32) {
  let c = vec2u(i, 0u);
  io[0u + i] = textureLoad(t_r8uint, c, 0);
  io[4u + i] = textureLoad(t_rg8uint, c, 0);
  io[8u + i] = textureLoad(t_r16uint, c, 0);
  io[12u + i] = textureLoad(t_rg16uint, c, 0);
  io[16u + i] = textureLoad(t_rg32uint, c, 0);
  io[20u + i] = textureLoad(t_rgb10a2uint, c, 0);
  io[24u + i] = vec4u(textureLoad(t_stencil8, c, 0).x, 0u, 0u, 0u);
  io[28u + i] = bitcast<vec4u>(textureLoad(t_r8sint, c, 0));
  io[32u + i] = bitcast<vec4u>(textureLoad(t_rg8sint, c, 0));
  io[36u + i] = bitcast<vec4u>(textureLoad(t_r16sint, c, 0));
  io[40u + i] = bitcast<vec4u>(textureLoad(t_rg16sint, c, 0));
  io[44u + i] = bitcast<vec4u>(textureLoad(t_rg32sint, c, 0));
}
