// Model of kernels/010_sample_filter.wgsl through the sampling model
// (sampling.mjs): five samplers at level 0 of the 4x4 rgba16float texture.
import { rgba16fLevel, sampleLod } from './sampling.mjs';

export default function ({ spec, init }) {
  const tex = { levels: [rgba16fLevel(init.tex.u32, 0, 4, 4)] };
  const smp = (n) => spec.buffers.find((b) => b.name === n).sampler;
  const c = init.coords.f32;
  const out = [];
  for (let i = 0; i < c.length / 2; i++) {
    const co = [c[2 * i], c[2 * i + 1]];
    for (const n of ['s_nearest', 's_clamp', 's_repeat', 's_mirror']) out.push(...sampleLod(tex, '2d', smp(n), co, 0));
    out.push(...sampleLod(tex, '2d', smp('s_mixed'), co, 0, { offset: [1, -2, 0] }));
  }
  return { result: out.map(Math.fround) };
}
