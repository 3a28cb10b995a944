// Model of kernels/005_builtins_bits.wgsl, one invocation at a time, from
// the WGSL definitions of each function (offset/count clamping included).
const N = 128;
const popc = (x) => { let n = 0; for (; x; x >>>= 1) n += x & 1; return n; };
const clz = (x) => Math.clz32(x);
const ctz = (x) => (x === 0 ? 32 : 31 - Math.clz32(x & -x));
const rev = (x) => { let r = 0; for (let k = 0; k < 32; k++) r = (r << 1) | ((x >>> k) & 1); return r >>> 0; };
const flbu = (x) => (x === 0 ? 0xffffffff : 31 - clz(x));
const flbs = (x) => { const t = (x | 0) < 0 ? ~x >>> 0 : x >>> 0; return t === 0 ? 0xffffffff : 31 - clz(t); };
const ftb = (x) => (x === 0 ? 0xffffffff : ctz(x));
function clampOC(off, cnt) { const o = Math.min(off, 32); return [o, Math.min(cnt, 32 - o)]; }
function mask(c) { return c >= 32 ? 0xffffffff : ((1 << c) >>> 0) - 1; }
function extract(e, off, cnt, signed) {
  const [o, c] = clampOC(off, cnt);
  if (c === 0) return 0;
  let v = (o >= 32 ? 0 : e >>> o) & mask(c);
  v >>>= 0;
  if (signed && c < 32 && (v >>> (c - 1)) & 1) v = (v | ~mask(c)) >>> 0;
  return v >>> 0;
}
function insert(e, nb, off, cnt) {
  const [o, c] = clampOC(off, cnt);
  if (c === 0) return e >>> 0;
  const m = (mask(c) << o) >>> 0;
  return ((e & ~m) | ((nb << o) & m)) >>> 0;
}

export default function ({ init }) {
  const us = init.us.u32, vs = init.vs.u32;
  const out = new Array(20 * N).fill(0);
  for (let i = 0; i < N; i++) {
    const v = vs[i], u = us[i] >>> (v & 31);
    const s = (u ^ (v & 0x80000000)) >>> 0;
    const off = v & 31, cnt = (v >>> 5) & 63;
    const put = (j, w) => { out[j * N + i] = w >>> 0; };
    put(0, popc(u)); put(1, clz(u)); put(2, ctz(u)); put(3, flbu(u)); put(4, ftb(u)); put(5, rev(u));
    put(6, flbs(s)); put(7, popc(s));
    put(8, extract(u, off, cnt, false)); put(9, extract(s, off, cnt, true));
    put(10, insert(u, v, off, cnt)); put(11, insert(s, v, off, cnt));
    put(12, extract(u, 24, 8, false)); put(13, insert(u, 0, 0, 32));
    put(14, ((clz(u) + rev(v)) ^ (clz(v) + rev(u))) >>> 0);
    put(15, u < v ? v : u);
    const b = [u < v, (u & 1) === 1, (v & 2) === 2];
    put(16, (b[0] && b[1] && b[2] ? 1 : 0) | (b[0] || b[1] || b[2] ? 2 : 0) | (b[0] && b[1] ? 4 : 0) | (b[1] || b[2] ? 8 : 0));
    const sx = b[0] ? v : u, sy = b[2] ? u : v;
    put(17, (sx + Math.imul(3, sy)) >>> 0);
    put(18, (b[0] ? 1 : 0) + (b[2] ? 2 : 0));
    put(19, ftb(s) ^ ctz(s));
  }
  return { out };
}
