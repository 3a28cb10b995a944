// Model of kernels/009_texture_formats_sampled.wgsl: each 4x1 texture's
// init words are its texel bytes, tightly packed, little-endian; texel i is
// decoded with WGSL's channel transfer functions (§Texel Formats) and the
// texture's channel layout, absent channels (0, 0, 1), and written to
// fo[] / io[] at 16 words per texture in the shader's order.
//   unorm: v / (2^n - 1); snorm: max(-1, v / (2^(n-1) - 1)); each an f32
//     division (the exact quotient rounded once: in double first is safe,
//     since p / q with q odd is never within 2^-53 of an f32 midpoint);
//   16float: IEEE binary16; 32float: the bits; integers: the value;
//   sRGB: the IEC 61966-2-1 EOTF c <= 0.04045 ? c / 12.92
//     : ((c + 0.055) / 1.055)^2.4 on r, g, b (alpha linear);
//   bgra8unorm: memory b, g, r, a;
//   rgb10a2: r bits 0-9, g 10-19, b 20-29, a 30-31 of the word;
//   rg11b10ufloat: r bits 0-10, g 11-21, b 22-31, unsigned floats with a
//     5-bit exponent (bias 15) and 6 / 5 fraction bits;
//   rgb9e5ufloat: 9-bit mantissas r 0-8, g 9-17, b 18-26 times
//     2^(e - 15 - 9), e in bits 27-31;
//   depth16unorm: v / 65535 (first component only); stencil8: v.
const f32 = Math.fround;

function half(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 31) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function ufloat(x, mb) {
  const e = x >> mb, m = x & ((1 << mb) - 1);
  if (e === 31) return m ? NaN : Infinity;
  if (e === 0) return m * 2 ** (-14 - mb);
  return (1 + m / 2 ** mb) * 2 ** (e - 15);
}

function srgb(v) {
  const c = v / 255;
  return f32(c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
}

// name: [element bytes, channels, element -> value]
const u = (n) => (v) => v;
const s = (n) => (v) => (v >= 2 ** (n - 1) ? v - 2 ** n : v);
const unorm = (n) => (v) => f32(v / (2 ** n - 1));
const snorm = (n) => (v) => Math.max(-1, f32(s(n)(v) / (2 ** (n - 1) - 1)));
const bits32 = (v) => new Float32Array(new Uint32Array([v]).buffer)[0];
const PLAIN = {
  r8unorm: [1, 1, unorm(8)], r8snorm: [1, 1, snorm(8)],
  rg8unorm: [1, 2, unorm(8)], rg8snorm: [1, 2, snorm(8)],
  r16float: [2, 1, half], rg16float: [2, 2, half], rg32float: [4, 2, bits32],
  r8uint: [1, 1, u(8)], rg8uint: [1, 2, u(8)], r16uint: [2, 1, u(16)], rg16uint: [2, 2, u(16)],
  rg32uint: [4, 2, u(32)], stencil8: [1, 1, u(8)],
  r8sint: [1, 1, s(8)], rg8sint: [1, 2, s(8)], r16sint: [2, 1, s(16)], rg16sint: [2, 2, s(16)],
  rg32sint: [4, 2, s(32)],
};
const FLOATS = ['r8unorm', 'r8snorm', 'rg8unorm', 'rg8snorm', 'r16float', 'rg16float', 'rg32float',
  'rgba8unorm-srgb', 'bgra8unorm', 'rgb10a2unorm', 'rg11b10ufloat', 'rgb9e5ufloat', 'depth16unorm'];
const INTS = ['r8uint', 'rg8uint', 'r16uint', 'rg16uint', 'rg32uint', 'rgb10a2uint', 'stencil8',
  'r8sint', 'rg8sint', 'r16sint', 'rg16sint', 'rg32sint'];

// The vec4 of texel i of format f over the bytes of the texture.
function texel(f, bytes, i) {
  const word = (k) => bytes[k] | bytes[k + 1] << 8 | bytes[k + 2] << 16 | (bytes[k + 3] << 24 >>> 0);
  const isInt = INTS.includes(f);
  const one = 1;
  if (f === 'rgba8unorm-srgb' || f === 'bgra8unorm') {
    const p = bytes.slice(4 * i, 4 * i + 4);
    const [r, g, b, a] = f === 'bgra8unorm' ? [p[2], p[1], p[0], p[3]] : p;
    if (f === 'bgra8unorm') return [r, g, b, a].map(unorm(8));
    return [srgb(r), srgb(g), srgb(b), unorm(8)(a)];
  }
  if (f === 'rgb10a2unorm' || f === 'rgb10a2uint') {
    const w = word(4 * i) >>> 0;
    const c = [w & 1023, (w >>> 10) & 1023, (w >>> 20) & 1023, w >>> 30];
    return f === 'rgb10a2uint' ? c : [unorm(10)(c[0]), unorm(10)(c[1]), unorm(10)(c[2]), unorm(2)(c[3])];
  }
  if (f === 'rg11b10ufloat') {
    const w = word(4 * i) >>> 0;
    return [ufloat(w & 0x7ff, 6), ufloat((w >>> 11) & 0x7ff, 6), ufloat(w >>> 22, 5), one].map(f32);
  }
  if (f === 'rgb9e5ufloat') {
    const w = word(4 * i) >>> 0, e = w >>> 27;
    return [w & 511, (w >>> 9) & 511, (w >>> 18) & 511].map((m) => f32(m * 2 ** (e - 24))).concat([one]);
  }
  if (f === 'depth16unorm') {
    const v = bytes[2 * i] | bytes[2 * i + 1] << 8;
    return [unorm(16)(v), 0, 0, 0];
  }
  const [size, ch, fn] = PLAIN[f];
  const out = [0, 0, 0, one];
  for (let c = 0; c < ch; c++) {
    let v = 0;
    for (let k = size - 1; k >= 0; k--) v = v * 256 + bytes[(i * ch + c) * size + k];
    out[c] = fn(v);
  }
  if (f === 'stencil8') return [out[0], 0, 0, 0];
  return isInt && !f.endsWith('uint') && f !== 'stencil8' ? out.map((x) => x >>> 0) : out;
}

export default function ({ init }) {
  const name = (f) => 't_' + f.replace(/-/g, '_');
  const bytesOf = (f) => new Uint8Array(init[name(f)].u32.buffer, init[name(f)].u32.byteOffset,
    init[name(f)].u32.byteLength);
  const fo = [], io = [];
  for (const f of FLOATS) for (let i = 0; i < 4; i++) fo.push(...texel(f, bytesOf(f), i));
  for (const f of INTS) for (let i = 0; i < 4; i++) io.push(...texel(f, bytesOf(f), i));
  return { fo, io };
}
