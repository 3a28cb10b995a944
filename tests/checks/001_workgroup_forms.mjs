// Model of kernels/001_workgroup_forms.wgsl: for each entry point, every
// invocation of its dispatch, with the built-ins computed from the WGSL
// definitions (local_invocation_index = x + y*sx + z*sx*sy,
// global_invocation_id = workgroup_id * workgroup_size + local_invocation_id).
import { dispatchOf } from './util.mjs';

const SIZES = { a: [64, 1, 1], b: [8, 8, 1], c: [4, 4, 4] };

function run(spec, init, entry) {
  const [sx, sy, sz] = SIZES[entry];
  const [nx, ny, nz] = dispatchOf(spec, entry);
  const out = Array.from(init[`forma_${entry}`].u32);
  for (let wz = 0; wz < nz; wz++)
    for (let wy = 0; wy < ny; wy++)
      for (let wx = 0; wx < nx; wx++)
        for (let z = 0; z < sz; z++)
          for (let y = 0; y < sy; y++)
            for (let x = 0; x < sx; x++) {
              const li = x + y * sx + z * sx * sy;
              const slot = (wx + nx * (wy + ny * wz)) * 64 + li;
              const rec = [x, y, z, li, wx * sx + x, wy * sy + y, wz * sz + z, slot];
              for (let k = 0; k < 8; k++) out[slot * 8 + k] = rec[k];
            }
  return out;
}

export default function ({ spec, init }) {
  return { forma_a: run(spec, init, 'a'), forma_b: run(spec, init, 'b'), forma_c: run(spec, init, 'c') };
}
