// Model of kernels/000_pool_arraylength.wgsl. Both pools are dispatched with
// the same number of invocations; por_longitud stops at arrayLength (the
// capacity), por_conteo at params.conteo (the live count).
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const k = Math.fround(0.99);
  const conteo = init.params.u32[0];
  const run = (x, limit) => {
    const out = Array.from(x);
    for (let i = 0; i < limit; i++) out[i] = Math.fround(x[i] * k);
    return out;
  };
  const a = init.pool_longitud.f32, b = init.pool_conteo.f32;
  return {
    pool_longitud: run(a, Math.min(invocationsX(spec, 'por_longitud', 64), a.length)),
    pool_conteo: run(b, Math.min(invocationsX(spec, 'por_conteo', 64), conteo)),
  };
}
