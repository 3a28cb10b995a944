// Model of kernels/002_loop_longest_lane.wgsl: a = a*31 + i (mod 2^32) for
// i = 0 .. limite-1, per invocation.
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const lim = init.limite.u32;
  const acumulado = Array.from(init.acumulado.u32), vueltas = Array.from(init.vueltas.u32);
  const n = invocationsX(spec, 'main', 64);
  for (let g = 0; g < n; g++) {
    let a = 0, i = 0;
    while (i < lim[g]) { a = (Math.imul(a, 31) + i) >>> 0; i++; }
    acumulado[g] = a;
    vueltas[g] = i;
  }
  return { acumulado, vueltas };
}
