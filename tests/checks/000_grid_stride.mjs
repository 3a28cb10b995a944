// Model of kernels/000_grid_stride.wgsl: each invocation's loop, run one
// invocation after the other (no two invocations touch the same element).
import { invocationsX } from './util.mjs';

export default function ({ spec, init }) {
  const k = Math.fround(0.99);
  const conteo = init.params.u32[0];

  const datos = Array.from(init.datos.f32), quien = Array.from(init.quien.u32);
  const total = invocationsX(spec, 'zancada', 64);
  for (let g = 0; g < total; g++)
    for (let i = g; i < conteo; i += total) {
      datos[i] = Math.fround(datos[i] * k);
      quien[i] = g;
    }

  const datosB = Array.from(init.datos_bloques.f32), quienB = Array.from(init.quien_bloques.u32);
  const totalB = invocationsX(spec, 'por_bloques', 64);
  const porcion = Math.floor((conteo + totalB - 1) / totalB);
  for (let g = 0; g < totalB; g++)
    for (let k2 = 0; k2 < porcion; k2++) {
      const i = g * porcion + k2;
      if (i >= conteo) break;
      datosB[i] = Math.fround(datosB[i] * k);
      quienB[i] = g;
    }
  return { datos, quien, datos_bloques: datosB, quien_bloques: quienB };
}
