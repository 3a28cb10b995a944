// Model of kernels/006_subgroup_reduce.wgsl at subgroup width `width`: the
// WGSL definitions of the reductions, scans and votes (§Subgroup Built-in
// Functions) over each subgroup's active lanes, formed as in subgroup_model.mjs.
// Buffer out: integers, f32 min/max and votes (exact); buffer sums: the f32
// sums and products, here in lane order (one valid order: the case compares
// them within the error bound of any order). modelWith() takes another
// order (tests/tools/other_order.mjs passes the tree order).
import { widthOf, forEachSubgroup, reduce, scan, MODES, inputs, bits, f32,
         addU, mulU, addI, mulI, addF, mulF } from './subgroup_model.mjs';

const WG = 100, K = 25, KS = 9;

export default function (args) {
  return modelWith(args, { reduce, scan });
}

export function modelWith({ spec, init, width }, { reduce, scan }) {
  const w = widthOf(width);
  const inp = init.inp.u32;
  const n = inp.length / 3;
  const out = Array.from(init.out.u32);
  const sums = Array.from(init.sums.f32);
  const groups = spec.dispatches[0].workgroups[0];
  MODES.forEach((active, mode) => {
    for (let gr = 0; gr < groups; gr++) {
      forEachSubgroup(WG, w, active, (lanes) => {
        const g = lanes.map((li) => gr * WG + Math.max(li, 0));
        const x = g.map((gi) => inputs(inp, n, gi));
        const u = x.map((v) => v.u), s = x.map((v) => v.s), f = x.map((v) => v.f);
        const nf = f.map((v) => -v), f2 = f.map((v) => f32(2 * v)), ns = s.map((v) => -v | 0);
        const red = {
          addU: reduce(u, lanes, addU), addI: reduce(s, lanes, addI), addF: reduce(f, lanes, addF),
          mulU: reduce(u, lanes, mulU), mulF: reduce(f, lanes, mulF),
          minU: reduce(u, lanes, Math.min), minI: reduce(s, lanes, Math.min), minF: reduce(f, lanes, Math.min),
          maxU: reduce(u, lanes, Math.max), maxI: reduce(s, lanes, Math.max), maxF: reduce(f, lanes, Math.max),
          and: reduce(u.map((v) => (v | 0x400) >>> 0), lanes, (a, b) => (a & b) >>> 0),
          or: reduce(u, lanes, (a, b) => (a | b) >>> 0), xor: reduce(s, lanes, (a, b) => a ^ b),
          minNS: reduce(ns, lanes, Math.min),
        };
        const sc = {
          xaddU: scan(u, lanes, addU, true, 0), iaddF: scan(f, lanes, addF, false),
          xmulI: scan(s, lanes, mulI, true, 1), imulU: scan(u, lanes, mulU, false),
          xaddF: scan(f, lanes, addF, true, 0), imulF: scan(f, lanes, mulF, false),
          xmulF: scan(f, lanes, mulF, true, 1), iaddI: scan(s, lanes, addI, false),
          iadd2F: scan(f2, lanes, addF, false), iaddNF: scan(nf, lanes, addF, false),
        };
        let all = 1, any = 0, ballot = [0, 0, 0, 0], first = -1;
        lanes.forEach((li, l) => {
          if (li < 0) return;
          if (first < 0) first = l;
          if (u[l] % 7 === 0) all = 0;
          if (u[l] % 11 === 0) any = 1;
          if (u[l] & 1) ballot[l >> 5] = (ballot[l >> 5] | (1 << (l & 31))) >>> 0;
        });
        lanes.forEach((li, l) => {
          if (li < 0) return;
          const o = (mode * n + g[l]) * K;
          const words = [
            red.addU, red.addI, red.mulU, red.minU, red.minI, bits(red.minF), red.maxU, red.maxI,
            bits(red.maxF), red.and, red.or, red.xor, sc.xaddU[l], sc.xmulI[l], sc.imulU[l],
            sc.iaddI[l], red.minI, red.minNS, all, any, ...ballot, l === first ? 1 : 0,
          ];
          words.forEach((v, k) => { out[o + k] = v >>> 0; });
          const os = (mode * n + g[l]) * KS;
          const fs = [red.addF, red.mulF, sc.iaddF[l], sc.xaddF[l], sc.imulF[l], sc.xmulF[l],
                      sc.iaddF[l], sc.iadd2F[l], sc.iaddNF[l]];
          fs.forEach((v, k) => { sums[os + k] = v; });
        });
      });
    }
  });
  return { out, sums };
}
