// Model of kernels/010_sample_gather.wgsl through the sampling model
// (sampling.mjs).
import { gather, rgba16fLevel, sampleLod, filter, samplerDefaults } from './sampling.mjs';

export default function ({ spec, init }) {
  const t2 = { levels: [rgba16fLevel(init.t2.u32, 0, 4, 4)] };
  const ta = { levels: [rgba16fLevel(init.ta.u32, 0, 4, 2, 3)] };
  const t1 = { levels: [rgba16fLevel(init.t1.u32, 0, 8, 1)] };
  const tuw = init.tu.u32;
  const tu = { levels: [{ w: 4, h: 4, d: 1, texel: (x, y) => [0, 8, 16, 24].map((s) => (tuw[x + 4 * y] >>> s) & 255) }] };
  const smp = (n) => spec.buffers.find((b) => b.name === n).sampler;
  const c = init.coords.f32;
  const out = [];
  for (let i = 0; i < c.length / 2; i++) {
    const co = [c[2 * i], c[2 * i + 1]];
    const layer = Math.min(Math.max((i % 6) - 1, 0), 2);
    out.push(...gather(t2, '2d', smp('s_lin'), co, 0));
    out.push(...gather(t2, '2d', smp('s_lin'), co, 1, { offset: [-1, 2] }));
    out.push(...gather(t2, '2d', smp('s_rep'), co, 3));
    out.push(...gather(tu, '2d', smp('s_nf'), co, 2));
    out.push(...gather(ta, '2d', smp('s_rep'), co, 0, { layer }));
    // base clamp: level 0, coordinates kept half a texel inside
    const cl = co.map((x) => Math.min(Math.max(x, 0.5 / 4), 1 - 0.5 / 4));
    out.push(...filter(t2, '2d', samplerDefaults(smp('s_lin')), cl, 0, true));
    out.push(...sampleLod(ta, '2d', smp('s_lin'), co, 0, { layer: Math.min(i % 4, 2) }));
    out.push(...sampleLod(t1, '2d', { ...smp('s_rep'), addressModeV: 'clamp-to-edge' }, [co[0], 0.5], 0));
  }
  return { result: out.map(Math.fround) };
}
