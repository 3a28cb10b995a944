// Model of kernels/010_sample_core.wgsl through the sampling model
// (sampling.mjs).
import { cubeFace, filter, gather, rgba16fLevel, sampleLod, samplerDefaults } from './sampling.mjs';

function depth16(u32, w, h, layers) {
  return { levels: [{ w, h, d: layers, texel: (x, y, z) => {
    const i = x + w * (y + h * z);
    return [((u32[i >> 1] >>> (16 * (i & 1))) & 0xffff) / 65535, 0, 0, 1];
  } }] };
}

export default function ({ spec, init }) {
  const td = depth16(init.td.u32, 4, 4, 1), tdc = depth16(init.tdc.u32, 2, 2, 6);
  const tca = { levels: [rgba16fLevel(init.tca.u32, 0, 2, 2, 12)] };
  const smp = (n) => samplerDefaults(spec.buffers.find((b) => b.name === n).sampler);
  const c = init.coords.f32, d = init.dirs.f32;
  const out = [];
  for (let i = 0; i < 16; i++) {
    const co = [c[4 * i], c[4 * i + 1]], ref = c[4 * i + 2];
    const dir = [d[4 * i], d[4 * i + 1], d[4 * i + 2]];
    const layer = 6 * Math.min(i % 3, 1);
    const [face, sc, tc, ma] = cubeFace(dir);
    const st = [0.5 * (sc / ma + 1), 0.5 * (tc / ma + 1)];
    out.push(td.levels[0].texel(i % 4, Math.floor(i / 4), 0)[0]);
    out.push(sampleLod(td, '2d', smp('s_nf'), co, 0)[0]);
    out.push(filter(tdc, 'cube', smp('sc'), st, 0, false, { face, cmp: (t) => ref <= t })[0]);
    out.push(2);
    out.push(...gather(td, '2d', smp('s_nf'), co, 0));
    out.push(...sampleLod(tca, 'cube', smp('s_lin'), dir, 0, { layer }));
    out.push(...gather(tca, 'cube', smp('s_lin'), dir, 3, { layer }));
  }
  return { result: out.map(Math.fround) };
}
