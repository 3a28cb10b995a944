// Model of kernels/001_workgroup_storage_16384.wgsl: each workgroup writes
// the transpose of its 64 x 64 tile.
import { dispatchOf } from './util.mjs';

export default function ({ spec, init }) {
  const x = init.entrada.u32;
  const out = Array.from(init.salida.u32);
  const [groups] = dispatchOf(spec, 'main');
  for (let w = 0; w < groups; w++)
    for (let r = 0; r < 64; r++)
      for (let c = 0; c < 64; c++) out[w * 4096 + r * 64 + c] = x[w * 4096 + c * 64 + r];
  return { salida: out };
}
