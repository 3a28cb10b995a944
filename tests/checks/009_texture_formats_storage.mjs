// Model of kernels/009_texture_formats_storage.wgsl: texel i of every 4x1
// storage texture gets value i of its sampled type, through WGSL's inverse
// channel transfer functions (§Texel Formats), components for absent
// channels ignored; the texel bytes, tightly packed and little-endian, are
// the words read back.
//   unorm n: max(0, min(1, T)), then to the integer floor(0.5 + (2^n - 1) x)
//     (the rounding of pack4x8unorm; the values keep clear of ties, so any
//     round-to-nearest gives the same bytes);
//   snorm n: max(-1, min(1, T)), then floor(0.5 + (2^(n-1) - 1) x);
//   uint n: min(2^n - 1, T); sint n: max(-2^(n-1), min(2^(n-1) - 1, T));
//   16float: quantizeToF16 (nearest binary16, ties to even; the values stay
//     in range); 32float: the bits;
//   bgra8unorm: memory b, g, r, a; rgb10a2: r bits 0-9, g 10-19, b 20-29,
//     a 30-31; rg11b10ufloat: max(0, T) to the nearest 11- / 10-bit unsigned
//     float (found by search over every finite code, ties to the even code),
//     r bits 0-10, g 11-21, b 22-31.
const f32 = Math.fround;

const VALS = {
  f: [[-0.5, 0.25, 1.5, 0.75], [0.1875, -2.0, 0.5625, 1.0],
    [0.3125, 0.6875, -0.3125, 0.0], [49152.0, 2 ** -19, 0.015625, -0.0]].map((v) => v.map(f32)),
  u: [[0, 1, 255, 256], [1023, 1024, 65535, 65536], [0xffffffff, 3, 4, 2], [12345, 0x80000000, 7, 100]],
  i: [[-1, 0, 127, 128], [-128, -129, 32767, 32768], [-32768, -32769, -2147483648, 2147483647],
    [-5, 5, 1000, -1000]],
};

const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));
const unorm = (n) => (x) => Math.floor(0.5 + (2 ** n - 1) * clamp(x, 0, 1));
const snorm = (n) => (x) => Math.floor(0.5 + (2 ** (n - 1) - 1) * clamp(x, -1, 1)) & (2 ** n - 1);
const uint = (n) => (x) => Math.min(2 ** n - 1, x);
const sint = (n) => (x) => (clamp(x, -(2 ** (n - 1)), 2 ** (n - 1) - 1) + 2 ** n) % 2 ** n;

// Every binary16 value, for quantizeToF16 by search.
function halfValue(h) {
  const e = (h >> 10) & 31, m = h & 1023, s = h & 0x8000 ? -1 : 1;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
function nearestCode(x, codes, value) {
  let best = -1, bd = Infinity;
  for (const c of codes) {
    const d = Math.abs(value(c) - x);
    if (d < bd || (d === bd && (c & 1) === 0)) { best = c; bd = d; }
  }
  return best;
}
const HALF_POS = Array.from({ length: 31 * 1024 }, (_, k) => k); // 0 .. 0x7bff
function f16(x) {
  if (Object.is(x, -0)) return 0x8000;
  const c = nearestCode(Math.abs(x), HALF_POS, halfValue);
  return x < 0 ? c | 0x8000 : c;
}
function ufloatValue(mb) {
  return (c) => {
    const e = c >> mb, m = c & ((1 << mb) - 1);
    return e === 0 ? m * 2 ** (-14 - mb) : (1 + m / 2 ** mb) * 2 ** (e - 15);
  };
}
function ufloat(mb) {
  const codes = Array.from({ length: 31 << mb }, (_, k) => k); // the finite ones
  return (x) => (x > 0 ? nearestCode(x, codes, ufloatValue(mb)) : 0);
}
const f32bits = (x) => new Uint32Array(new Float32Array([x]).buffer)[0];

// format: [sampled type, channels (memory order as shader components),
//          bytes per channel, encoder]
const PLAIN = {};
for (const [pre, ch] of [['r', 1], ['rg', 2], ['rgba', 4]])
  for (const n of [8, 16, 32]) {
    PLAIN[`${pre}${n}unorm`] = ['f', ch, n / 8, unorm(n)];
    PLAIN[`${pre}${n}snorm`] = ['f', ch, n / 8, snorm(n)];
    PLAIN[`${pre}${n}uint`] = ['u', ch, n / 8, uint(n)];
    PLAIN[`${pre}${n}sint`] = ['i', ch, n / 8, sint(n)];
    PLAIN[`${pre}${n}float`] = ['f', ch, n / 8, n === 16 ? f16 : f32bits];
  }

function texelBytes(f, v) {
  if (f === 'bgra8unorm') return [v[2], v[1], v[0], v[3]].map(unorm(8));
  if (f === 'rgb10a2unorm' || f === 'rgb10a2uint') {
    const e = f === 'rgb10a2uint' ? [uint(10), uint(10), uint(10), uint(2)]
      : [unorm(10), unorm(10), unorm(10), unorm(2)];
    const c = v.map((x, k) => e[k](x));
    const w = (c[0] | c[1] << 10 | c[2] << 20 | c[3] << 30) >>> 0;
    return [w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24];
  }
  if (f === 'rg11b10ufloat') {
    const w = (ufloat(6)(v[0]) | ufloat(6)(v[1]) << 11 | ufloat(5)(v[2]) << 22) >>> 0;
    return [w & 255, (w >>> 8) & 255, (w >>> 16) & 255, w >>> 24];
  }
  const [, ch, size, enc] = PLAIN[f];
  const out = [];
  for (let c = 0; c < ch; c++) {
    let x = enc(v[c]);
    for (let k = 0; k < size; k++) { out.push(x % 256); x = Math.floor(x / 256); }
  }
  return out;
}

const kindOf = (f) => (f.endsWith('uint') ? 'u' : f.endsWith('sint') ? 'i' : 'f');

export default function ({ spec }) {
  const out = {};
  for (const b of spec.buffers) {
    const f = b.texture.format;
    const bytes = [];
    for (let i = 0; i < 4; i++) bytes.push(...texelBytes(f, VALS[kindOf(f)][i]));
    const words = [];
    for (let k = 0; k < bytes.length; k += 4)
      words.push((bytes[k] | bytes[k + 1] << 8 | bytes[k + 2] << 16 | bytes[k + 3] << 24) >>> 0);
    out[b.name] = words;
  }
  return out;
}
