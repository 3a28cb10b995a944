// The @const bit and packing built-ins (§Integer Built-in Functions,
// §Data Packing, §Data Unpacking) and concrete integer wrapping, each
// called twice: folded from literal arguments (o[2k]) and at run time on
// the same values read from `inp` (o[2k+1]); vector results take four
// words each way. Both must equal the spec's arithmetic:
//   extractBits(0x12345678u, 4, 8) = (0x12345678 >> 4) & 0xff = 0x67 = 103
//   extractBits(i32 0x800, 4, 8) = 0x80, bit 7 copied up: -128 = 4294967168
//   insertBits(0xffffffffu, 0u, 8, 8) = 0xffff00ff = 4294902015
//   pack4x8snorm(1, -1, 0.5, 0): floor(0.5 + 127 e) = 127, -127, 64, 0
//     -> 0x0040817f = 4227455
//   pack4x8unorm(1, 0.5, 0, 0.25): floor(0.5 + 255 e) = 255, 128, 0, 64
//     -> 0x400080ff = 1073774847
//   pack2x16snorm(-1, 0.5): -32767, floor(0.5 + 16383.5) = 16384
//     -> 0x40008001 = 1073774593
//   pack2x16unorm(0.5, 1): 32768, 65535 -> 0xffff8000 = 4294934528
//   unpack4x8snorm(0x80817f40u): 64/127 (f32 0x3f010204 = 1057030660), 1,
//     -1, max(-128/127, -1) = -1 -> 1057030660 1065353216 3212836864 3212836864
//   unpack4x8unorm(0xff804000u): 0, 64/255 (0x3e808081), 128/255
//     (0x3f008081), 1 -> 0 1048608897 1056997505 1065353216
//   unpack2x16snorm(0x80004000u): 16384/32767 (0x3f000100), max(-32768/32767, -1)
//     -> 1056964864 3212836864
//   unpack2x16unorm(0xffff8000u): 32768/65535 (0x3f000080), 1
//     -> 1056964736 1065353216
//   pack4xI8(-1, 127, -128, 300): low bytes ff 7f 80 2c -> 0x2c807fff = 746618879
//   pack4xU8(1, 255, 256, 0x1234): 01 ff 00 34 -> 0x3400ff01 = 872480513
//   pack4xI8Clamp(-1000, 1000, -5, 5): 80 7f fb 05 -> 0x05fb7f80 = 100368256
//   pack4xU8Clamp(1000, 3, 255, 256): ff 03 ff ff -> 0xffff03ff = 4294902783
//   unpack4xI8(0x80ff7f01u): 1, 127, -1, -128 -> 1 127 4294967295 4294967168
//   unpack4xU8(0x80ff7f01u): 1 127 255 128
//   dot4U8Packed(0xffffffffu, 0x01020304u) = 255 * (4 + 3 + 2 + 1) = 2550
//   dot4I8Packed(0xffffffffu, 0x01020304u) = -1 * 10 = -10 = 4294967286
//   dot4I8Packed(0x80808080u, 0x80808080u) = 4 * (-128)^2 = 65536
//   2147483647i + 1i = -2^31 = 2147483648;  65535i * 65537i = 2^32 - 1 -> -1
//   = 4294967295;  -(-2^31) = -2^31 = 2147483648;  0u - 1u = 4294967295
@group(0) @binding(0) var<storage, read> inp: array<u32, 31>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 76>;

fn f(i: u32) -> f32 { return bitcast<f32>(inp[i]); }
fn s(i: u32) -> i32 { return bitcast<i32>(inp[i]); }

fn put4(at: u32, c: vec4u, r: vec4u) {
  for (var k = 0u; k < 4u; k++) { o[at + k] = c[k]; o[at + 4u + k] = r[k]; }
}
fn put2(at: u32, c: vec2u, r: vec2u) {
  for (var k = 0u; k < 2u; k++) { o[at + k] = c[k]; o[at + 2u + k] = r[k]; }
}

@compute @workgroup_size(1) fn main() {
  o[0] = extractBits(0x12345678u, 4u, 8u);
  o[1] = extractBits(inp[0], 4u, 8u);
  o[2] = bitcast<u32>(extractBits(0x800i, 4u, 8u));
  o[3] = bitcast<u32>(extractBits(s(1), 4u, 8u));
  o[4] = insertBits(0xffffffffu, 0u, 8u, 8u);
  o[5] = insertBits(inp[2], inp[6], 8u, 8u);
  o[6] = pack4x8snorm(vec4f(1.0, -1.0, 0.5, 0.0));
  o[7] = pack4x8snorm(vec4f(f(3), f(4), f(5), f(6)));
  o[8] = pack4x8unorm(vec4f(1.0, 0.5, 0.0, 0.25));
  o[9] = pack4x8unorm(vec4f(f(3), f(5), f(6), f(7)));
  o[10] = pack2x16snorm(vec2f(-1.0, 0.5));
  o[11] = pack2x16snorm(vec2f(f(4), f(5)));
  o[12] = pack2x16unorm(vec2f(0.5, 1.0));
  o[13] = pack2x16unorm(vec2f(f(5), f(3)));
  put4(14u, bitcast<vec4u>(unpack4x8snorm(0x80817f40u)), bitcast<vec4u>(unpack4x8snorm(inp[8])));
  put4(22u, bitcast<vec4u>(unpack4x8unorm(0xff804000u)), bitcast<vec4u>(unpack4x8unorm(inp[9])));
  put2(30u, bitcast<vec2u>(unpack2x16snorm(0x80004000u)), bitcast<vec2u>(unpack2x16snorm(inp[10])));
  put2(34u, bitcast<vec2u>(unpack2x16unorm(0xffff8000u)), bitcast<vec2u>(unpack2x16unorm(inp[11])));
  o[38] = pack4xI8(vec4i(-1, 127, -128, 300));
  o[39] = pack4xI8(vec4i(s(2), s(15), s(16), s(17)));
  o[40] = pack4xU8(vec4u(1u, 255u, 256u, 0x1234u));
  o[41] = pack4xU8(vec4u(inp[18], inp[19], inp[20], inp[21]));
  o[42] = pack4xI8Clamp(vec4i(-1000, 1000, -5, 5));
  o[43] = pack4xI8Clamp(vec4i(s(22), s(23), s(24), s(25)));
  o[44] = pack4xU8Clamp(vec4u(1000u, 3u, 255u, 256u));
  o[45] = pack4xU8Clamp(vec4u(inp[23], inp[26], inp[19], inp[20]));
  put4(46u, bitcast<vec4u>(unpack4xI8(0x80ff7f01u)), bitcast<vec4u>(unpack4xI8(inp[12])));
  put4(54u, unpack4xU8(0x80ff7f01u), unpack4xU8(inp[12]));
  o[62] = dot4U8Packed(0xffffffffu, 0x01020304u);
  o[63] = dot4U8Packed(inp[2], inp[13]);
  o[64] = bitcast<u32>(dot4I8Packed(0xffffffffu, 0x01020304u));
  o[65] = bitcast<u32>(dot4I8Packed(inp[2], inp[13]));
  o[66] = bitcast<u32>(dot4I8Packed(0x80808080u, 0x80808080u));
  o[67] = bitcast<u32>(dot4I8Packed(inp[14], inp[14]));
  o[68] = bitcast<u32>(2147483647i + 1i);
  o[69] = bitcast<u32>(s(27) + 1i);
  o[70] = bitcast<u32>(65535i * 65537i);
  o[71] = bitcast<u32>(s(28) * s(29));
  o[72] = bitcast<u32>(-i32(-2147483648));
  o[73] = bitcast<u32>(-s(30));
  o[74] = 0u - 1u;
  o[75] = inp[6] - 1u;
}
