// Model of kernels/002_workgroup.wgsl for either entry point (peor: 100,
// mejor: 64): element i is handled by workgroup floor(i / TAM), lane i % TAM.
import { invocationsX } from './util.mjs';

const SIZE = { peor: 100, mejor: 64 };

export default function ({ spec, init }) {
  const TAM = SIZE[spec.pipelines.main.entryPoint];
  const x = init.datos.f32;
  const datos = Array.from(x), quien = Array.from(init.quien.u32);
  const n = Math.min(invocationsX(spec, 'main', TAM), x.length);
  for (let i = 0; i < n; i++) {
    datos[i] = Math.fround(x[i] * 2 + 1);   // x*2 is exact; one rounding
    quien[i] = ((Math.floor(i / TAM) << 8) | (i % TAM)) >>> 0;
  }
  return { datos, quien };
}
