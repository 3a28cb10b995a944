// Model of kernels/005_array_values.wgsl: plain JavaScript arrays indexed
// the same way; u32 arithmetic wraps with >>> 0.
const T = [3, 1, 4, 1, 5, 9, 2, 6];
const f32bits = (v) => new Uint32Array(new Float32Array([v]).buffer)[0];

export default function ({ init }) {
  const inp = init.inp.u32;
  const n = 128;
  const out = new Array(n * 8).fill(0);
  for (let i = 0; i < n; i++) {
    const x = inp[i];
    const a = [x, (x * 2) >>> 0, (x + 7) >>> 0, 11];
    const b = [[i, x], [5, 6], [(x ^ 3) >>> 0, i * 3]];
    const s = [{ a: 1, v: [x, x, x] }, { a: i, v: [2, 3, 4] }, { a: x + i, v: [i, 0, 9] }];
    const nested = [[1, 2, x], [i, 5, 6]];
    const k = x % 4, m = i % 3;
    const o = i * 8;
    out[o] = a[k];
    out[o + 1] = (b[m][0] + b[m][1] * 1000) >>> 0;
    out[o + 2] = (s[m].a + s[m].v[k % 3] * 100) >>> 0;
    out[o + 3] = (nested[i % 2][m] + nested[1 - (i % 2)][k % 3] * 100) >>> 0;
    out[o + 4] = T[x % 8];
    out[o + 5] = [-1, -2, -3, -4, -5][i % 5] + 100;
    out[o + 6] = ([7, 8, 9][m] + a[(k + 1) % 4] * 10) >>> 0;
    out[o + 7] = f32bits([0.5, x][i % 2]);
  }
  return { out };
}
