// Model of kernels/000_guard.wgsl: every invocation of the dispatch with
// gid.x < params.conteo multiplies its word by 0.99 (one f32 rounding).
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const conteo = init.params.u32[0];
  const x = init.datos.f32;
  const k = Math.fround(0.99);
  const out = Array.from(x);
  const n = Math.min(invocationsX(spec, 'main', 64), conteo);
  for (let i = 0; i < n; i++) out[i] = Math.fround(x[i] * k);
  return { datos: out };
}
