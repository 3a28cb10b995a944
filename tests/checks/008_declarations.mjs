// Model of kernels/008_declarations.wgsl. Override values come from the
// case's pipeline constants, else from their defaults (which may be
// expressions over other overrides); private variables start at their
// initialiser or zero per invocation, workgroup variables at zero per
// workgroup; the shadowed names resolve to the innermost declaration.
import { dispatchOf } from './util.mjs';
const u = (x) => x >>> 0;
const F = new Float32Array(1), W = new Uint32Array(F.buffer);
const bits = (x) => { F[0] = x; return W[0]; };

export default function ({ spec }) {
  const c = spec.pipelines.main.constants ?? {};
  const WG = c.WG ?? 16;
  const scale = c['7'] ?? 3;            // @id(7)
  const bias = Math.fround(c.bias);     // no default: the case must set it
  const doubled = c.doubled ?? scale * 2;
  const flag = c.flag === undefined ? true : c.flag !== 0;
  const off = c.off ?? Math.floor(WG / 4) + 1;
  const [groups] = dispatchOf(spec, 'main');
  const K = 24, C2 = 21, LOCAL = C2 + 1, CARR = [5, 6, 7, 8];
  const out = new Array(spec.buffers[0].count).fill(0xdeadbeef);
  for (let g = 0; g < groups; g++) {
    let sum = 0;
    for (let l = 0; l < WG; l++) sum = u(sum + g * WG + l);
    for (let lid = 0; lid < WG; lid++) {
      const x = g * WG + lid;
      const w = [];
      const put = (v) => w.push(u(v));
      put(WG); put(scale); put(doubled); put(bits(Math.fround(bias * 2))); put(flag ? 1 : 2); put(off);
      const ar = new Array(8).fill(0);
      ar[x % 8] = CARR[x % 4];
      put(x * 2 + LOCAL + (LOCAL << 8) + (ar[x % 8] << 16) + (ar[(x + 1) % 8] << 24));
      let pv = 0, privi = -5;
      put(pv + u(privi));
      pv = u(pv + x + 1000);
      privi -= 2;
      put(pv + (x + 7) * 10000 + u(privi));       // privarr[7] = x + 7
      put((x + 77) * 1000 + x);                   // swapped
      put(3 * 10 + 99);
      put(Math.min(x, 5) + pv);
      put(x * 2 + 1);
      put(x + 0x10000);
      put(x + (x + 1) * 100 + Math.imul(Math.imul(x, scale), 7));
      const arr = [x, x * 2, x * 3, x * 4];
      put(arr[x % 4] + arr[3]);
      put((x + 1) * 3);
      const v = [x, x + 1, x + 2];
      v[x % 3] += 1;
      v[x % 3] += 7;                              // fp through fq's pointer
      const b = [false, false];
      b[x % 2] = true;
      const k = v[(x + 1) % 3];
      put(v[0] + v[1] * 100 + v[2] * 10000 + k * 1000000);
      const bv = [false, false, false];
      bv[x % 3] = true;
      bv[(x + 1) % 3] = !bv[(x + 2) % 3];
      put((b[0] ? 1 : 0) + (b[1] ? 2 : 0) + (bv[0] ? 4 : 0) + (bv[1] ? 8 : 0) + (bv[2] ? 16 : 0));
      put(0);                                     // workgroup memory seen before any write
      put(((g * WG + (lid + 1) % WG) * 3) + 1);
      put(sum);
      put(g + 100);
      const wl = 31 - (lid % 32);                 // written by the invocation with that lid
      if (WG !== 32) throw new Error('the wt words assume WG = 32');
      put(wl * 2 + 5);
      if (w.length > K) throw new Error('too many words');
      w.forEach((v, k) => { out[x * K + k] = v; });
    }
  }
  return { out };
}
