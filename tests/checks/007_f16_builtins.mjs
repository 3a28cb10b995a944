// Model of kernels/007_f16_builtins.wgsl. Single functions are the exact
// (double) value rounded once to f16; the functions WGSL defines by a
// formula ("inherited from") evaluate that formula with every operation
// rounded to f16, in the formula's order (tests/checks/f16.mjs).
import { roundF16 as h } from './f16.mjs';

const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);
const dot = (x, y) => x.reduce((acc, v, k) => (k === 0 ? h(v * y[0]) : h(acc + h(v * y[k]))), 0);
const len = (v) => (v.length === 1 ? Math.abs(v[0]) : h(Math.sqrt(dot(v, v))));

export default function ({ init }) {
  const X = init.xs.f32;
  const n = X.length / 3;
  const out = new Array(25 * n).fill(0);
  for (let i = 0; i < n; i++) {
    const a = h(X[3 * i]), b = h(X[3 * i + 1]), c = h(X[3 * i + 2]);
    const t = h(c - Math.floor(c));
    const r = [];
    r[0] = a > 0 ? 1 : a < 0 ? -1 : 0;
    r[1] = a >= b ? 1 : 0;
    r[2] = clamp(a, 0, 1);
    r[3] = h(a * 8);
    r[4] = h(a - Math.floor(a));
    r[5] = h(2 ** a);
    r[6] = h(Math.log2(h(Math.abs(a) + 0.5)));
    r[7] = h(1 / Math.sqrt(h(Math.abs(a) + 0.25)));
    r[8] = h(Math.atan2(a, h(Math.abs(b) + 0.5)));
    r[9] = h(Math.atan(a));
    r[10] = h(Math.tanh(a));
    r[11] = h(Math.pow(h(Math.abs(a) + 0.5), b));
    r[12] = h(h(a * h(1 - t)) + h(b * t));                       // x * (1 - t) + y * t
    const s = clamp(h(h(a - -2) / h(2 - -2)), 0, 1);              // t * t * (3 - 2 t)
    r[13] = h(h(s * s) * h(3 - h(2 * s)));
    r[14] = dot([a, b, t], [b, t, a]);
    const v = [h(a + 0.5), h(b + 0.5)];
    r[15] = h(v[0] / len(v));
    r[16] = h(h(t * b) - h(a * a));                              // x.z * y.x - x.x * y.z
    r[17] = h(a * 57.295779513082322865);
    r[18] = h(h(a * a) - h(t * b));                              // m00 m11 - m10 m01
    r[19] = len([a, b, t]);
    r[20] = len([h(a - t), h(b - a)]);
    // frexp: a = fract * 2^exp with |fract| in [0.5, 1); 0 gives (0, 0)
    let ex = 0;
    if (a !== 0) { ex = Math.floor(Math.log2(Math.abs(a))) + 1; if (Math.abs(a) / 2 ** ex >= 1) ex++; if (Math.abs(a) / 2 ** ex < 0.5) ex--; }
    r[21] = a === 0 ? a : a / 2 ** ex;
    r[22] = ex;
    r[23] = h(a - Math.trunc(a));                                // modf: e - trunc(e)
    // refract(e1 = (t, 0.5), e2 = (0, 1), e3 = 0.75)
    const d = dot([0, 1], [t, 0.5]);
    const k = h(1 - h(h(0.75 * 0.75) * h(1 - h(d * d))));
    const cc = h(h(0.75 * d) + h(Math.sqrt(k)));
    r[24] = k < 0 ? 0 : h(h(0.75 * t) - h(cc * 0));
    for (let k2 = 0; k2 < 25; k2++) out[k2 * n + i] = r[k2];
  }
  return { out };
}
