// Model of kernels/000_dispatch2d.wgsl: walks the whole 2D dispatch, flattens
// (wid.y * 4096 + wid.x) * 64 + li as the shader does, and applies the update
// where the index is below params.conteo. Each index must be hit once.
import { dispatchOf } from './util.mjs';

export default function ({ spec, init }) {
  const ANCHO = 4096, TAM = 64;
  const conteo = init.params.u32[0];
  const out = Uint32Array.from(init.datos.u32);
  const hits = new Uint8Array(out.length);
  const [nx, ny, nz] = dispatchOf(spec, 'main');
  if (nz !== 1) throw new Error('expected z = 1');
  for (let wy = 0; wy < ny; wy++)
    for (let wx = 0; wx < nx; wx++) {
      const grupo = wy * ANCHO + wx;
      for (let li = 0; li < TAM; li++) {
        const i = grupo * TAM + li;
        if (i >= conteo) continue;
        if (hits[i]++) throw new Error(`index ${i} processed twice`);
        out[i] = ((out[i] ^ 0xa5a5a5a5) + grupo) >>> 0;
      }
    }
  for (let i = 0; i < conteo; i++) if (!hits[i]) throw new Error(`index ${i} never processed`);
  return { datos: Array.from(out) };
}
