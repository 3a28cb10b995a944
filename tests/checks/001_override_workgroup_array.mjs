// Model of kernels/001_override_workgroup_array.wgsl: each pipeline's TAM
// comes from its constants; sums of consecutive chunks of TAM inputs.
import { treeSum } from './reduce.mjs';
import { dispatchOf } from './util.mjs';

export default function ({ spec, init }) {
  const x = init.entrada.f32;
  const run = (pipeline, target) => {
    const TAM = spec.pipelines[pipeline].constants?.TAM ?? 64;
    const [groups] = dispatchOf(spec, pipeline);
    const out = Array.from(init[target].f32);
    for (let w = 0; w < groups; w++) out[w] = treeSum(x.subarray(w * TAM, w * TAM + TAM), TAM);
    return out;
  };
  return { sumas_a: run('t32', 'sumas_a'), sumas_b: run('t128', 'sumas_b') };
}
