// Model of kernels/010_sample_compare.wgsl through the sampling model
// (sampling.mjs): each texel's depth against depth_ref, then the filter.
import { filter, gather, samplerDefaults } from './sampling.mjs';

const PASS = { less: (r, d) => r < d, 'greater-equal': (r, d) => r >= d };

function depth16(u32, w, h, layers) {
  return { levels: [{ w, h, d: layers, texel: (x, y, z) => {
    const i = x + w * (y + h * z);
    return [((u32[i >> 1] >>> (16 * (i & 1))) & 0xffff) / 65535, 0, 0, 1];
  } }] };
}

export default function ({ spec, init }) {
  const td = depth16(init.td.u32, 4, 4, 1), tda = depth16(init.tda.u32, 4, 4, 2);
  const smp = (n) => samplerDefaults(spec.buffers.find((b) => b.name === n).sampler);
  const less = smp('sc_less'), pcf = smp('sc_pcf');
  const q = init.query.f32;
  const out = [];
  for (let i = 0; i < 16; i++) {
    const co = [q[4 * i], q[4 * i + 1]], ref = q[4 * i + 2];
    const layer = Math.min(Math.max(q[4 * i + 3], 0), 1);
    const cl = (d) => PASS.less(ref, d), cg = (d) => PASS['greater-equal'](ref, d);
    out.push(filter(td, '2d', less, co, 0, false, { cmp: cl })[0]);
    out.push(filter(td, '2d', pcf, co, 0, true, { cmp: cg })[0]);
    out.push(filter(td, '2d', pcf, co, 0, true, { cmp: cg, offset: [1, -1, 0] })[0]);
    out.push(filter(tda, '2d', less, co, 0, false, { cmp: cl, layer })[0]);
    out.push(...gather(td, '2d', less, co, 0, { cmp: cl }));
    out.push(...gather(tda, '2d', pcf, co, 0, { cmp: cg, layer, offset: [-1, 0] }));
  }
  return { result: out.map(Math.fround) };
}
