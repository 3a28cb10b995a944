// Model of kernels/008_entry_struct.wgsl: WGSL's definitions of the
// built-in values (§Built-in Values) for workgroup_size(4, 4, 2) and a
// dispatch of (3, 2, 1) workgroups, written out invocation by invocation.
export default function ({ init }) {
  const WS = [4, 4, 2], NWG = [3, 2, 1];
  const out = new Array(init.out.u32.length).fill(0xdeadbeef);
  const sx = WS[0] * NWG[0], sy = WS[1] * NWG[1];
  for (let wz = 0; wz < NWG[2]; wz++)
    for (let wy = 0; wy < NWG[1]; wy++)
      for (let wx = 0; wx < NWG[0]; wx++)
        for (let lz = 0; lz < WS[2]; lz++)
          for (let ly = 0; ly < WS[1]; ly++)
            for (let lx = 0; lx < WS[0]; lx++) {
              const gx = wx * WS[0] + lx, gy = wy * WS[1] + ly, gz = wz * WS[2] + lz;
              const flat = gx + sx * (gy + sy * gz);
              const li = lx + ly * WS[0] + lz * WS[0] * WS[1];
              const o = flat * 12;
              out[o] = li;
              out[o + 1] = gx;
              out[o + 2] = gy;
              out[o + 3] = gz;
              out[o + 4] = lx + 10 * ly + 100 * lz;
              out[o + 5] = wx + 10 * wy + 100 * wz;
              out[o + 6] = NWG[0] + 10 * NWG[1] + 100 * NWG[2];
              out[o + 7] = 1;
              out[o + 8] = 1;
              out[o + 9] = 1;
              out[o + 10] = flat;
              out[o + 11] = 0x5a5a5a5a;
            }
  return { out };
}
