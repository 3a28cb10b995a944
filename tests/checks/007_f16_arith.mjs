// Model of kernels/007_f16_arith.wgsl. f16 values are JS numbers that are
// exactly f16 (roundF16 of the exact or correctly rounded double result:
// tests/checks/f16.mjs); f32 steps use Math.fround. Output words hold two
// f16 encodings, the lower-addressed half in the low 16 bits.
import { roundF16 as h, f16Bits, f16Value, halvesToWords } from './f16.mjs';

const f = Math.fround;
// round(): nearest integer, ties to even, keeping the sign of a zero result
const roundEven = (v) => {
  const r = Math.floor(v), d = v - r;
  const q = d > 0.5 || (d === 0.5 && r % 2 !== 0) ? r + 1 : r;
  return q === 0 && (v < 0 || Object.is(v, -0)) ? -0 : q;
};
const min = (x, y) => (x < y ? x : y);
const max = (x, y) => (x > y ? x : y);
const pack = (lo, hi) => ((f16Bits(lo) | (f16Bits(hi) << 16)) >>> 0);
const f32bits = (x) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x, true); return b.getUint32(0, true); };
// WGSL float -> integer: truncate, clamp to the integers the f16 holds
const toI32 = (x) => Math.trunc(x) | 0;
const toU32 = (x) => (x <= 0 ? 0 : Math.trunc(x) >>> 0);

export default function ({ spec, init }) {
  const X = init.xs.f32, UW = init.u.u32, UI = init.u.i32;
  const n = X.length / 2;
  const hx = [], ux = new Array(8 * n).fill(0), fa = new Array(8 * n).fill(0);
  const uh = [0, 1, 2, 3].map((q) => f16Value((UW[8 + (q >> 1)] >>> (16 * (q & 1))) & 0xffff));
  const ug = [0, 1].map((q) => f16Value((UW[10] >>> (16 * q)) & 0xffff));
  const us = f16Value(UW[11] & 0xffff);
  for (let i = 0; i < n; i++) {
    const a = h(X[2 * i]), b = h(X[2 * i + 1]);
    const j = i & 7, k = UI[j];
    hx.push(a, b, h(a + b), h(a - b), h(a * b), -a, Math.abs(b), min(a, b), max(a, b),
      min(max(a, -50), 50), Math.floor(a), Math.ceil(a), Math.trunc(a), roundEven(a),
      h(k), h(uh[j & 3] * ug[j & 1]));
    const p = 8 * i;
    ux[p] = pack(a, b);
    ux[p + 1] = toU32(a);
    ux[p + 2] = toI32(a) >>> 0;
    ux[p + 3] = (a < b) | ((a <= b) << 1) | ((a === b) << 2) | ((a !== b) << 3) | ((a > b) << 4) |
      ((a >= b) << 5) | ((a > 0) << 6);
    ux[p + 4] = f32bits(f(a * us));
    ux[p + 5] = pack(h(f(X[2 * i] * 3)), a > b ? 1 : 0);
    ux[p + 6] = pack(h((k >>> 0) & 0x7fff), a - Math.floor(a));
    const mw = ((k >>> 0) & 0x7bff7bff) >>> 0;
    ux[p + 7] = ((mw >>> 16) | ((mw & 0xffff) << 16)) >>> 0; // m.yx
    const d = h(Math.abs(b) + 1), c = h(a / 64);
    const x = h(a / 16), y = h(b / 16);
    fa[i] = h(a / d);
    fa[n + i] = h(Math.sqrt(Math.abs(a)));
    fa[2 * n + i] = h(a * b + 1.5);
    fa[3 * n + i] = h(Math.sqrt(h(h(x * x) + h(y * y))));
    fa[4 * n + i] = h(Math.exp(c));
    fa[5 * n + i] = h(Math.log(h(Math.abs(a) + 1)));
    fa[6 * n + i] = h(Math.sin(c));
    fa[7 * n + i] = h(Math.cos(c));
  }
  return { hx: halvesToWords(hx), ux, fa };
}
