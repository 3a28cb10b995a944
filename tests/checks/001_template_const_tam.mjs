// Model of kernels/001_template_const_tam.wgsl (the template at TAM = 64).
import { treeSum } from './reduce.mjs';
import { dispatchOf } from './util.mjs';

export default function ({ spec, init }) {
  const TAM = 64;
  const x = init.entrada.f32;
  const [groups] = dispatchOf(spec, 'main');
  const invertido = Array.from(init.invertido.f32), sumas = Array.from(init.sumas.f32);
  for (let w = 0; w < groups; w++) {
    const chunk = x.subarray(w * TAM, w * TAM + TAM);
    for (let li = 0; li < TAM; li++) invertido[w * TAM + li] = chunk[TAM - 1 - li];
    sumas[w] = treeSum(chunk, TAM);
  }
  return { invertido, sumas };
}
