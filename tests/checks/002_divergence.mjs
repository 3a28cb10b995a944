// Model of kernels/002_divergence.wgsl, one invocation at a time.
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const x = init.entrada.u32;
  const salida = Array.from(init.salida.u32), rama = Array.from(init.rama.u32);
  const n = invocationsX(spec, 'main', 64);
  for (let g = 0; g < n; g++) {
    const li = g % 64, v = x[g];
    let r, camino;
    if ((li & 1) === 0) { r = (Math.imul(v, v) + 7) >>> 0; camino = 0; }
    else if (v % 3 === 0) { r = Math.floor(v / 3); camino = 1; }
    else { r = ((v ^ 0xffff) >>> 0) >>> 3; camino = 2; }
    rama[g] = camino;
    salida[g] = (r + li) >>> 0;
  }
  return { salida, rama };
}
