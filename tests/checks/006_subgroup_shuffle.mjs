// Model of kernels/006_subgroup_shuffle.wgsl at subgroup width `width`:
// broadcasts and shuffles (§Subgroup Built-in Functions) and the quad
// operations (§Quad Operations), with lanes 4q..4q+3 of a subgroup forming
// quad q and quad invocation id lane & 3 (docs/spec-notes.md). Subgroups as
// in subgroup_model.mjs. The kernel stores NONE wherever the source lane is
// not active (WGSL leaves that read indeterminate) and runs a broadcast only
// when its lane is active (else a dynamic error), storing NONE otherwise.
import { widthOf, forEachSubgroup, fromLane, MODES, inputs, bits, f32 } from './subgroup_model.mjs';

const WG = 100, K = 26, NONE = 0xbaadf00d;

export default function ({ spec, init, width }) {
  const w = widthOf(width);
  const inp = init.inp.u32;
  const n = inp.length / 3;
  const out = Array.from(init.out.u32);
  const groups = spec.dispatches[0].workgroups[0];
  MODES.forEach((active, mode) => {
    for (let gr = 0; gr < groups; gr++) {
      forEachSubgroup(WG, w, active, (lanes) => {
        const g = lanes.map((li) => gr * WG + Math.max(li, 0));
        const x = g.map((gi) => inputs(inp, n, gi));
        const u = x.map((v) => v.u), s = x.map((v) => v.s >>> 0);
        const fb = x.map((v) => bits(v.f)), nfb = x.map((v) => bits(-v.f));
        const f2b = x.map((v) => bits(f32(2 * v.f))), three = x.map(() => bits(3));
        const sid = lanes.map((_, l) => l);
        const first = lanes.findIndex((li) => li >= 0);
        const at = (v, src) => fromLane(v, lanes, src, NONE);
        lanes.forEach((li, l) => {
          if (li < 0) return;
          const o = (mode * n + g[l]) * K;
          const q = l & ~3;
          const words = [
            at(u, 5), at(s, 0), at(fb, 3), at(nfb, 3), s[first], fb[first],
            at(u, (l * 7 + 3) % 64), at(s, l - 2), at(u, l ^ 5), at(fb, l ^ 64),
            at(fb, l - 3), at(u, l + 2), at(u, l + 1), at(sid, l + 1),
            at(u, q | 2), at(fb, q), at(f2b, q), at(three, q),
            at(u, l ^ 1), at(s, l ^ 2), at(fb, l ^ 3), at(u, l ^ 1), at(sid, l ^ 1),
            at(s, l ^ 2), at(sid, l ^ 2), at(sid, l ^ 3),
          ];
          words.forEach((v, k) => { out[o + k] = v >>> 0; });
        });
      });
    }
  });
  return { out };
}
