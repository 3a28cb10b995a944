// Model of kernels/010_sample_cube_3d.wgsl through the sampling model
// (sampling.mjs).
import { gather, rgba16fLevel, sampleLod } from './sampling.mjs';

export default function ({ spec, init }) {
  const t3 = { levels: [rgba16fLevel(init.t3.u32, 0, 4, 4, 4)] };
  const tc = { levels: [rgba16fLevel(init.tc.u32, 0, 4, 4, 6)] };
  const smp = (n) => spec.buffers.find((b) => b.name === n).sampler;
  const c = init.c3.f32, d = init.dirs.f32;
  const out = [];
  for (let i = 0; i < 16; i++) {
    const co = [c[4 * i], c[4 * i + 1], c[4 * i + 2]], dir = [d[4 * i], d[4 * i + 1], d[4 * i + 2]];
    out.push(...sampleLod(t3, '3d', smp('s_near'), co, 0));
    out.push(...sampleLod(t3, '3d', smp('s_lin'), co, 0));
    out.push(...sampleLod(t3, '3d', smp('s_lin'), co, 0, { offset: [1, 0, -1] }));
    out.push(...sampleLod(tc, 'cube', smp('s_near'), dir, 0));
    out.push(...sampleLod(tc, 'cube', smp('s_lin'), dir, 0));
    out.push(...gather(tc, 'cube', smp('s_lin'), dir, 1));
  }
  return { result: out.map(Math.fround), dims: [4, 4] };
}
