// Model of kernels/008_statements.wgsl: each WGSL function as a plain JS
// function with the same control flow; u32 arithmetic wraps with >>> 0,
// i32 with | 0 (Math.imul for products; JS % and truncating / match WGSL's
// on the values used, none of which divides by zero).
const u = (x) => x >>> 0;
const i = (x) => x | 0;
const idiv = (a, b) => i(Math.trunc(a / b));
const udiv = (a, b) => u(Math.floor(a / b));

export default function ({ init }) {
  const inp = Array.from(init.inp.u32);
  const n = inp.length;
  const K = 36;
  const out = new Array(n * K).fill(0);
  let calls = 0;
  const bump = (k) => { calls = u(Math.imul(calls, 3) + k); return calls; };

  function classify(x) {
    const s = x % 8;
    if (s === 0 || s === 1) return 10 + s;
    if (s === 2) return 20;
    if (s >= 3 && s <= 5) return x % 16 === 3 ? 30 + s : 130 + s;
    return 90;
  }
  function classifySigned(x) {
    const s = (x % 7) - 3;
    const r = s === -3 || s === -1 ? 5 : s === 0 ? 11 : 7;
    return r * 2;
  }
  function loopContinuing(x) {
    let ii = 0, s = 0;
    for (;;) {
      if (ii === 3) ii += 1;
      else s += ii * ii;
      ii += 1;                       // continuing
      if (ii >= (x % 9) + 2) break;  // break if
    }
    return u(s * 100 + ii);
  }
  function forComplex(x) {
    let nn = 0, acc = 0;
    for (let j = x % 5; j < 200; j = u(j * 3 + (x % 2) + 1)) { acc = u(Math.imul(acc, 7) + j); nn++; }
    let seen = 0;
    for (let k = 0; k < x % 4; bump(k)) { seen += 1; k++; }
    return u(acc ^ (nn << 24) ^ (seen << 28));
  }
  function whileLoop(x) {
    let j = x + 1, steps = 0;
    while (j !== 1) { j = j % 2 === 0 ? j / 2 : 3 * j + 1; steps++; }
    return steps;
  }
  function nested(x) {
    let t = 0, outer = 0;
    for (let a = 0; a < 6; a++) {
      outer = a;
      if (a === x % 6) continue;
      for (let b = 0; b < 6; b++) {
        if (b > a) break;
        if ((a + b + x) % 3 === 0) continue;
        t += a * 10 + b;
      }
      if (t > 40 + (x % 64)) break;
    }
    return u(t * 8 + outer);
  }
  function early(x) {
    for (let a = 1; a < 8; a++) for (let b = 0; b < 8; b++) if (a * b === x % 30) return a * 16 + b;
    return 999;
  }
  function compoundScalar(x) {
    let s = i(x - 500);
    s = i(s + 7); s = i(s - 3); s = Math.imul(s, -5);
    const a = u(s);
    s = idiv(s, 3); s = i(s % 97);
    const b = u(s);
    s &= 0x7ff; s |= 0x1000; s ^= 0x0ff0; s = i(s << 19);
    const c = u(s);
    s >>= 5; s = i(s + 1); s = i(s - 1); s = i(s - 1);
    let v = u(x << (x % 32));
    v = v >>> (udiv(x, 7) % 32);
    v = v % (1000 + x);
    v = udiv(v, 3);
    return [a, b, c, u(u(s) ^ u(v << 1))];
  }
  function compoundVector(x) {
    const v = [i(x), i(-x), 3, -7];
    v[0] = i(v[0] + 100);
    v[1] = i(v[1] - (x % 13));
    v[2] = Math.imul(v[2], v[3]);
    v[3] = idiv(v[3], 2);
    v[x % 4] = i(v[x % 4] % 5);
    v[0] &= 0xff;
    v[1] |= 1;
    v[2] ^= i(x);
    v[(x + 1) % 4] = i(v[(x + 1) % 4] << 2);
    v[3] >>= 1;
    for (let k = 0; k < 4; k++) v[k] = i(v[k] + k + 1);
    for (let k = 0; k < 4; k++) v[k] = Math.imul(v[k], 3);
    v[0] = i(v[0] + 1);
    v[(x + 2) % 4] = i(v[(x + 2) % 4] - 1);
    return v.map(u);
  }
  function compoundArray(x) {
    const a = [x, x + 1, x + 2, 40, 50, 60];
    a[0] = u(a[0] + 9); a[1] = u(a[1] - 4); a[2] = u(a[2] * 3); a[3] = udiv(a[3], 7); a[4] = a[4] % 7;
    a[x % 6] = u(a[x % 6] & 0xf0);
    a[(x + 1) % 6] = u(a[(x + 1) % 6] | 0x100);
    a[(x + 2) % 6] = u(a[(x + 2) % 6] ^ 0x55);
    a[(x + 3) % 6] = u(a[(x + 3) % 6] << (x % 8));
    a[(x + 4) % 6] = a[(x + 4) % 6] >>> 1;
    a[x % 3] = u(a[x % 3] + 1);
    a[5] = u(a[5] - 1);
    return [u(a[0] + u(a[1] << 16)), u(a[2] + u(a[3] << 16)), u(a[4] + u(a[5] << 16)), a[x % 6]];
  }

  function switchInLoop(x) {
    let acc = 0;
    for (let k = 0; k < 10; k++) {
      const c = (k + x) % 4;
      if (c === 0) continue;
      if (c === 1) acc += k;
      else if (c === 2) { if (!(k > 5)) acc += 100; }
      else acc += 1000;
      acc += 1;
    }
    return acc;
  }
  function guardedWhile(x) {
    const data = [3, 1, 4, 1, 5, 0];
    let j = 0;
    while (j < 6 && data[j] !== x % 7) j++;
    return j;
  }
  function findInSwitch(x) {
    for (let k = 0; k < 20; k++) {
      if (k % 3 === 0) { if (k * x > 50) return k; }
      else if (k + (x % 32) === 25) return 1000 + k;
    }
    return 7777;
  }

  for (let g = 0; g < n; g++) {
    const x = inp[g], o = g * K;
    calls = 0;
    out[o + 0] = classify(x);
    out[o + 1] = classify(g);
    out[o + 2] = classifySigned(x);
    out[o + 3] = classifySigned(g);
    out[o + 4] = loopContinuing(x);
    out[o + 5] = forComplex(x);
    out[o + 6] = calls;
    out[o + 7] = whileLoop(x);
    out[o + 8] = nested(x);
    out[o + 9] = nested(g);
    out[o + 10] = early(x);
    out[o + 11] = early(g * 3);
    const cs = compoundScalar(x);
    for (let k = 0; k < 4; k++) out[o + 12 + k] = cs[k];
    const cv = compoundVector(x);
    for (let k = 0; k < 4; k++) out[o + 16 + k] = cv[k];
    const ca = compoundArray(x);
    out[o + 20] = u(ca[0] ^ u(ca[3] << 7));
    out[o + 21] = ca[1];
    out[o + 22] = ca[2];
    out[o + 24] = switchInLoop(x);
    out[o + 25] = guardedWhile(x);
    out[o + 26] = findInSwitch(x);
    let ctr = x % 3, trace = 0;
    const next = () => { ctr += 1; trace = u(Math.imul(trace, 10) + ctr); return ctr; };
    const arr = new Array(8).fill(0);
    { const ix = next(); arr[ix] = next() * 10; }          // left-hand side first
    { const ix = next() % 8; arr[ix] = u(arr[ix] + next()); }
    out[o + 27] = u(arr[0] + arr[1] * 3 + arr[2] * 5 + arr[3] * 7 + arr[4] * 11 + arr[5] * 13 + arr[6] * 17 + arr[7] * 19);
    out[o + 28] = trace;
    const w = [x, x, x, x];
    trace = 0;
    { const ix = next() % 4; w[ix] = u(w[ix] + 1); }
    { const ix = next() % 4; w[ix] = u(Math.imul(w[ix], next())); }
    out[o + 29] = u(w[0] + w[1] * 3 + w[2] * 5 + w[3] * 7);
    out[o + 30] = u(trace + ctr * 100000);
    out[o + 31] = K;
    // the reference is taken before the right-hand side moves the index
    let k = x % 4;
    const bumpk = () => { k = (k + 1) % 4; return 50 + k; };
    { const ix = k; w[ix] = bumpk(); }
    { const ix = k; w[ix] = u(w[ix] + bumpk()); }
    const a4 = [1, 2, 3, 4];
    let kk = k;
    k = Math.floor(x / 4) % 4;
    { const ix = k; a4[ix] = bumpk(); }
    { const ix = k; a4[ix] = u(Math.imul(a4[ix], bumpk())); }
    const j = k;
    out[o + 32] = u(w[0] + w[1] * 3 + w[2] * 5 + w[3] * 7 + kk * 1000000);
    out[o + 33] = u(a4[0] + a4[1] * 3 + a4[2] * 5 + a4[3] * 7 + j * 1000000);
    k = x % 100;
    { const old = k; k = u(old + bumpk()); }
    calls = x % 100;
    { const old = calls; calls = u(Math.imul(old, bump(1))); }
    out[o + 34] = u(k + Math.imul(calls, 1000));
    k = x % 4;
    { const f = k, r = bumpk(); out[o + 35] = (r > 51 ? 99 : f) * 1000 + k; }
    calls = 1;
    bump(x % 10);
    bump(2);
    if ((x & 1) === 1) bump(5);
    out[o + 23] = calls;
  }
  return { out };
}
