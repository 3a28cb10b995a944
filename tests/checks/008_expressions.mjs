// Model of kernels/008_expressions.wgsl, written from the WGSL rules: u32
// wraps (>>> 0), i32 wraps (| 0, Math.imul); run-time shift amounts are
// taken modulo 32; x / 0 = x, x % 0 = 0, MIN / -1 = MIN, MIN % -1 = 0;
// float -> integer truncates and clamps to the largest f32 inside the
// range (i32: [-2^31, 2^31 - 128], u32: [0, 2^32 - 256]); && and || skip
// their right operand; the words are produced in the kernel's order.
const u = (x) => x >>> 0;
const s = (x) => x | 0;
const F = new Float32Array(1), W = new Uint32Array(F.buffer);
const bits = (x) => { F[0] = x; return W[0]; };
const fromBits = (w) => { W[0] = w; return F[0]; };
const h4 = (v) => u(v[0] + Math.imul(v[1], 3) + Math.imul(v[2], 5) + Math.imul(v[3], 7));
const MIN = -2147483648;
const sdiv = (x, y) => (y === 0 ? x : x === MIN && y === -1 ? x : s(Math.trunc(x / y)));
const srem = (x, y) => (y === 0 ? 0 : x === MIN && y === -1 ? 0 : s(x % y));
const udiv = (x, y) => (y === 0 ? x : Math.floor(x / y));
const urem = (x, y) => (y === 0 ? 0 : x % y);
const toI32 = (f) => Math.min(Math.max(Math.trunc(f), MIN), 2147483520);
const toU32 = (f) => Math.min(Math.max(Math.trunc(f), 0), 4294967040);

export default function ({ init }) {
  const inp = Array.from(init.inp.u32);
  const K = 64;
  const out = new Array(K * 64 + 64).fill(0xdeadbeef);
  const cnt = [0, 0, 0, 0];
  for (let i = 0; i < 64; i++) {
    const words = [];
    const put = (w) => words.push(u(w));
    const a = inp[i], b = inp[(i * 7 + 3) % 64], d = inp[i ^ 1];
    const f = fromBits(inp[64 + i]);
    const sa = s(a), sb = s(b), sd = s(d);

    put(Math.imul(a, 3) + (b % 5) - 1);
    put(a - b - 7);
    put(Math.floor(a / 7) % 13);
    put(a & b & 0xff00ff);
    put(a | b | 1);
    put(a ^ b ^ 0x5a5a5a5a);
    put((a << 3) | (b >>> 2));
    put(Math.imul(s(-sa), sb));
    put(sa + ~sb);
    put(~a + 1);
    const p = a > b, q = (a & 1) === 1;
    put(((!p) === q ? 1 : 0) | ((p !== !q ? 1 : 0) << 1) | (((p && q) || !p ? 1 : 0) << 2) | ((!(a < b)) === (b <= a) ? 8 : 0));
    put(bits(-(b & 0xff) * (a & 0xff) + 0.5));
    const v = [a, b, u(a ^ b), i];
    put(h4(v.map((x) => u(~x))) ^ h4([v[3], v[2], v[1], v[0]].map((x) => u(-x))));

    put(a << (b & 31));
    put(a >>> (b & 31));
    put(sa >> (b & 31));
    put(sa << (d & 31));
    put(1 << ((i + 20) & 31));

    let hits = 0;
    const side = (k, r) => { hits = u(Math.imul(hits, 4) + k); cnt[k]++; return r; };
    const c1 = a % 3 === 0 && side(1, b % 2 === 0);
    const c2 = a % 5 === 0 || side(2, b % 3 === 0);
    const c3 = side(3, a > b) && (side(1, true) || side(2, false));
    const c4 = (a & 4) !== 0 && side(3, false);
    if (!((a & 8) === 0 || side(0, true))) hits = u(hits + 1000);
    put((c1 ? 1 : 0) | (c2 ? 2 : 0) | (c3 ? 4 : 0) | (c4 ? 8 : 0));
    put(hits);

    put(h4([v[3], v[2], v[1], v[0]]));
    put(h4([v[0], v[0], v[1], v[1]]));
    put(h4([v[3], v[2], v[1], v[0]]));
    put(h4([v[1], v[0], v[2], v[1]]));
    put(v[2] + v[3] * 2);
    const w = [1, u(b + 2), a >>> 3, i];
    w[1] = u(Math.imul(w[1], 3));
    w[2] = u(w[2] ^ 5);
    w[3] = 6;
    w[i % 4] = u(w[i % 4] + 100);
    put(h4(w));
    put(h4([u(w[1] + w[0]), u(w[1] + w[2]), u(w[3] + w[0]), u(w[3] + w[2])]));

    const fb = inp[64 + i];
    put(fb);
    put(s(fb) >> 1);
    put(bits(f) ^ bits(-f));
    put((a & 0x3fffffff) | 0x00800000);
    put(bits(fromBits(0x3f800000 | (a & 0xffff)) * 2));
    put(b);

    put(0);
    put(a ^ 0x1234);
    put(h4([a, b, a, 5]));
    put(h4([a, b, 1, 2]));
    put(h4([b, a, i, 9]));
    put(Math.imul([1, 2, 3][i % 3], sa));
    put([a, b, 3][(i + 1) % 3] + 3);
    put(sa ^ b ^ (i + 1));
    put(1 + (a > b ? 2 : 0) + (p && q ? 4 : 0));

    put(toI32(f));
    put(toU32(f));
    put(0);
    put((a !== 0 ? 1 : 0) | (f !== 0 ? 2 : 0) | ((a & 3) !== 0 ? 4 : 0));
    put(Math.trunc(Math.fround(srem(sa, 1000) * 0.5)));

    put(sdiv(sa, sd));
    put(srem(sa, sd));
    put(udiv(a, d));
    put(urem(a, d));
    put(sdiv(sa, sd) ^ srem(-7, 2));

    put(a + 1);
    put(0x80000000 + a);
    put(Math.imul(sa, -5) + 16);
    put(bits((a & 7) * 1.5 * 4 + 0.25));
    put(a >>> 4);
    put(11 - sb);

    let ctr = i % 4, trace = 0;
    const next = () => { ctr += 1; trace = Math.imul(trace, 10) + ctr; return ctr; };
    { const p1 = next(), q1 = next(); put(p1 * 100 + q1); }
    { const e1 = next(), e2 = next(), e3 = next(); put(e1 - e2 * 2 + e3); }
    put(trace);
    const va = [i, a % 64, 2, 30], vb = [5, b % 64, i, 15];
    let cmp = 0;
    for (let k = 0; k < 4; k++) if (va[k] < vb[k]) cmp |= 1 << k;
    if (va.some((x, k) => x === vb[k])) cmp |= 16;
    if (va.every((x, k) => x >= vb[k])) cmp |= 32;
    if (va.every((x, k) => x !== vb[k])) cmp |= 64;
    put(cmp);

    if (words.length > K) throw new Error('too many words');
    for (let k = 0; k < words.length; k++) out[i * K + k] = words[k];
    out[K * 64 + i] = Math.fround(a);   // an f32 word: its value
  }
  return { out, cnt };
}
