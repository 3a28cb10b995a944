// Model of kernels/008_atomics.wgsl: the commutative operations folded over
// all invocations (any order gives the same result), the exchange chains and
// the ticket counter reduced to what the kernel stores about them: every
// value comes back exactly once, counting the one left in the atomic.
const u = (x) => x >>> 0;
const s = (x) => x | 0;

export default function ({ init }) {
  const vals = Array.from(init.vals.u32);
  const c0 = Array.from(init.c.u32);
  const WG = 64, GROUPS = 4, T = WG * GROUPS, WOUT = 96;
  const c = c0.slice();
  for (let x = 0; x < T; x++) {
    const v = vals[x], sv = s(v);
    c[0] = u(c[0] + v);
    c[1] = u(c[1] - (v >>> 4));
    c[2] = Math.max(c[2], v);
    c[3] = Math.min(c[3], v);
    c[4] = u(c[4] & (v | 0xf0f0f0f0));
    c[5] = u(c[5] | (v & 0x0f0f00ff));
    c[6] = u(c[6] ^ v);
    c[8] = u(s(c[8]) + (sv >> 6));
    c[9] = u(s(c[9]) - (sv >> 6));
    c[10] = u(Math.max(s(c[10]), sv));
    c[11] = u(Math.min(s(c[11]), sv));
    c[12] = u(c[12] & (sv | 0x0ff00ff0));
    c[13] = u(c[13] | (sv & s(0x80000300)));
    c[14] = u(c[14] ^ sv);
  }
  c[7] = 0xaaaa5555;     // finish's atomicStore
  c[15] = u(-77);
  c[16] = T;             // the ticket counter
  c[17] = GROUPS;        // one winner per workgroup
  const marks = new Array(init.marks.u32.length).fill(1);   // 3 * (T + 1) - 1 = 770 marks, all seen once

  const out = new Array(init.out.u32.length).fill(0xdeadbeef);
  for (let g = 0; g < GROUPS; g++) {
    const wu = [0, 1000000, 0, 0xffffffff, 0xffffffff, 0, 0];
    const wi = [0, 5, -2147483648, 2147483647, -1, 0, 0];
    for (let lid = 0; lid < WG; lid++) {
      const v = vals[g * WG + lid], sv = s(v);
      wu[0] = u(wu[0] + (v & 0xffff));
      wu[1] = u(wu[1] - lid * 3);
      wu[2] = Math.max(wu[2], v);
      wu[3] = Math.min(wu[3], v);
      wu[4] = u(wu[4] & (v | 0xff00ff00));
      wu[5] = u(wu[5] | (1 << (lid % 32)));
      wu[6] = u(wu[6] ^ v);
      wi[0] = s(wi[0] + (sv >> 8));
      wi[1] = s(wi[1] - lid);
      wi[2] = Math.max(wi[2], sv);
      wi[3] = Math.min(wi[3], sv);
      wi[4] = wi[4] & (sv | 0x7fff0000);
      wi[5] = wi[5] | (sv & 0x00f0000f);
      wi[6] = wi[6] ^ sv;
    }
    const o = g * WOUT;
    for (let k = 0; k < 7; k++) { out[o + k] = wu[k]; out[o + 8 + k] = u(wi[k]); }
    for (let k = 0; k <= 64; k++) out[o + 16 + k] = 1 + (1 << 8);
    for (let k = 0; k < 4; k++) out[o + 81 + k] = 0xffff;   // bit lid / 4 of bits[lid % 4]
    out[o + 85] = WG;
    out[o + 86] = WG - 1 - 40;
    out[o + 87] = 77 + g;
  }
  const o = GROUPS * WOUT;
  for (let k = 0; k < 18; k++) out[o + k] = c[k];
  return { c: c.map((w, k) => (k >= 8 && k < 16 ? s(w) : w)), marks, out };
}
