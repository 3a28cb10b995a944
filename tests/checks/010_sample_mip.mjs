// Model of kernels/010_sample_mip.wgsl through the sampling model
// (sampling.mjs): explicit levels and gradient levels of detail on the
// 4-level 8x8 rgba16float texture.
import { lambdaGrad, rgba16fLevel, sampleLod } from './sampling.mjs';

export default function ({ spec, init }) {
  const u32 = init.tex.u32;
  const levels = [];
  for (let L = 0, at = 0; L < 4; L++) {
    const n = 8 >> L;
    levels.push(rgba16fLevel(u32, at, n, n));
    at += 2 * n * n;
  }
  const tex = { levels };
  const smp = (n) => spec.buffers.find((b) => b.name === n).sampler;
  const c = init.coords.f32, lv = init.levels.f32, g = init.grads.f32;
  const nc = c.length / 2;
  const out = [], lin = [];
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < nc; x++) {
      const co = [c[2 * x], c[2 * x + 1]];
      for (const n of ['s_mip_nearest', 's_mip_linear', 's_lod_clamped', 's_min_mag'])
        out.push(...sampleLod(tex, '2d', smp(n), co, lv[y]));
      const lam = lambdaGrad(tex, '2d', [g[4 * y], g[4 * y + 1]], [g[4 * y + 2], g[4 * y + 3]]);
      out.push(...sampleLod(tex, '2d', smp('s_mip_nearest'), co, lam));
      lin.push(...sampleLod(tex, '2d', smp('s_mip_linear'), co, lam));
    }
  return { result: out.map(Math.fround), gradlin: lin.map(Math.fround) };
}
