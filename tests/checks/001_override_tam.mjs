// Model of kernels/001_override_tam.wgsl with TAM taken from the pipeline's
// constants: sqrt correctly rounded to f32 (a double sqrt of an f32 rounded
// once to f32 is correctly rounded), and the workgroup number i / TAM.
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const TAM = spec.pipelines.main.constants?.TAM ?? 64;
  const x = init.entrada.f32;
  const salida = Array.from(init.salida.f32), grupo = Array.from(init.grupo.u32);
  const n = Math.min(invocationsX(spec, 'main', TAM), x.length);
  for (let i = 0; i < n; i++) {
    salida[i] = Math.fround(Math.sqrt(x[i]));
    grupo[i] = Math.floor(i / TAM);
  }
  return { salida, grupo };
}
