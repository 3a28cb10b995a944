// Model of kernels/005_pointers.wgsl: the structs as plain objects, each
// pointer as the object (or array) it points at; u32 wraps with >>> 0.
const f = Math.fround;

export default function ({ init }) {
  const buf = Array.from(init.buf.u32);
  const fbuf = Array.from(init.buf.f32);
  const n = 128;
  const out = new Array(n * 8).fill(0);
  const wg = [];
  for (let g = 0; g < n / 64; g++) for (let l = 0; l < 64; l++) wg[g * 64 + l] = l * 2 + 1;
  for (let i = 0; i < n; i++) {
    const lid = i % 64;
    const inner = { v: [i, i + 1, i + 2, i + 3], arr: [0, 0, 0, 0] };
    // bump(&o.inner, i)
    inner.v[1] = (inner.v[1] + i) >>> 0;
    inner.arr[i % 4] = i * 3;
    inner.v[(i + 2) % 4] = (inner.v[(i + 2) % 4] ^ 1) >>> 0;
    const v = inner.v, a = inner.arr;
    const o = i * 8;
    out[o] = (v[0] + v[1] * 10 + v[2] * 100 + v[3] * 1000) >>> 0;
    out[o + 1] = (a[i % 4] + a[(i + 1) % 4] * 1000) >>> 0;
    out[o + 2] = (i * 3 + 77) >>> 0; // state.x + state.inner.arr[1]
    out[o + 3] = wg[(i - lid) + ((lid + 1) % 64)];
    // colsum: column 1 becomes column 0 * 2; (2 * 2i) + 1 * i
    const c0 = [f(1 * i), f(2 * i)];
    out[o + 4] = Math.trunc(f(f(c0[1] * 2) + c0[0]));
    out[o + 5] = (v[0] + v[1] * 100 + v[3]) >>> 0;
    const b = i * 16;
    buf[b] = (buf[b] + i) >>> 0;
    buf[b + 8 + (i % 4)] = (buf[b + 8 + (i % 4)] + 5) >>> 0;
    buf[b + 6] = (buf[b + 4] * 2) >>> 0;
    out[o + 6] = Math.trunc(f(fbuf[b + 12] + fbuf[b + 15]));
    a[(i + 3) % 4] = 9;
    out[o + 7] = (a[0] + a[1] * 10 + a[2] * 100 + a[3] * 1000) >>> 0;
  }
  // the record's f32 words are returned as numbers of their type
  const bufOut = buf.map((w, k) => (k % 16 >= 12 ? fbuf[k] : w));
  return { buf: bufOut, out };
}
