// Model of kernels/001_required_limits_1024.wgsl: workgroups of 1024 reverse
// their inputs and add the local index (mod 2^32).
import { dispatchOf } from './util.mjs';

export default function ({ spec, init }) {
  const x = init.entrada.u32;
  const out = Array.from(init.salida.u32);
  const [groups] = dispatchOf(spec, 'main');
  for (let w = 0; w < groups; w++)
    for (let li = 0; li < 1024; li++) out[w * 1024 + li] = (x[w * 1024 + 1023 - li] + li) >>> 0;
  return { salida: out };
}
