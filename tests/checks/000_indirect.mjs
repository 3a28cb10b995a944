// Model of kernels/000_indirect.wgsl as the case runs it: preparar, then
// procesar dispatched indirectly from args (skipped when a count exceeds the
// default maxComputeWorkgroupsPerDimension, 65535, as the WebGPU spec says),
// then marcar.
const LIMIT = 65535;

export default function ({ spec, init }) {
  const args = Array.from(init.args.u32);
  const contador = init.contador.u32[0];
  const datos = Array.from(init.datos.f32);
  const registro = Array.from(init.registro.u32);   // lanzadas, gx, gy, gz, despues
  const k = Math.fround(0.99);
  for (const d of spec.dispatches) {
    if (d.pipeline === 'preparar') {
      args[0] = Math.floor((contador + 63) / 64) >>> 0;
    } else if (d.pipeline === 'procesar') {
      const [x, y, z] = args;
      if (x > LIMIT || y > LIMIT || z > LIMIT) continue;   // skipped
      registro[0] = (registro[0] + x * y * z * 64) >>> 0;
      if (x * y * z > 0) { registro[1] = x; registro[2] = y; registro[3] = z; }
      // gid.x = wid.x * 64 + li, the same for every (wid.y, wid.z) row;
      // rows beyond the first would repeat the update, which y = z = 1 avoids.
      if (y !== 1 || z !== 1) throw new Error('model assumes Y = Z = 1');
      for (let i = 0; i < x * 64; i++)
        if (i < contador && i < datos.length) datos[i] = Math.fround(datos[i] * k);
    } else if (d.pipeline === 'marcar') {
      registro[4] = 1;
    }
  }
  return { args, datos, registro };
}
