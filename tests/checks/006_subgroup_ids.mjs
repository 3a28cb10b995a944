// Model of kernels/006_subgroup_ids.wgsl at subgroup width `width`: in a
// workgroup of 6 x 5 invocations, local_invocation_index li = x + 6 y;
// lockstep puts li in lane li % W of subgroup li / W (docs/spec-notes.md).
import { widthOf } from './subgroup_model.mjs';

const SX = 6, N = 30;

export default function ({ spec, init, width }) {
  const w = widthOf(width);
  const out = Array.from(init.out.u32);
  const groups = spec.dispatches[0].workgroups[0];
  const nsub = Math.ceil(N / w);
  for (let gr = 0; gr < groups; gr++) {
    for (let li = 0; li < N; li++) {
      const s = Math.floor(li / w);
      const members = [];
      for (let j = s * w; j < Math.min(N, (s + 1) * w); j++) members.push(j);
      const o = (gr * N + li) * 8;
      out[o] = li % w;
      out[o + 1] = w;
      out[o + 2] = s;
      out[o + 3] = nsub;
      out[o + 4] = members.reduce((a, j) => a + (j % SX), 0);
      out[o + 5] = Math.floor(members[0] / SX);
      out[o + 6] = members[members.length - 1];
      out[o + 7] = members.length >= 32 ? 0xffffffff : ((1 << members.length) >>> 0) - 1;
    }
  }
  return { out };
}
