// Model of kernels/005_atomic_cas.wgsl: the compare-exchange of each
// invocation's own cell is deterministic; the shared counter ends at the
// sum of all values; each workgroup sees its maximum and invocation 0's value.
export default function ({ init }) {
  const cells = Array.from(init.cells.u32), vals = init.vals.u32;
  const n = vals.length;
  const res = new Array(n * 4).fill(0);
  let total = init.total.u32[0];
  for (let i = 0; i < n; i++) {
    const expect = (i & 1) === 0 ? (i * 3) >>> 0 : 7;
    const old = cells[i];
    res[i * 4] = old;
    res[i * 4 + 1] = old === expect ? 1 : 0;
    if (old === expect) cells[i] = 1000 + i;
    total = (total + vals[i]) >>> 0;
  }
  for (let g = 0; g < n / 64; g++) {
    let m = 0; // the workgroup atomic starts at zero
    for (let l = 0; l < 64; l++) m = Math.max(m, (vals[g * 64 + l] | 0) - 5000);
    for (let l = 0; l < 64; l++) {
      const i = g * 64 + l;
      res[i * 4 + 2] = (vals[g * 64] * 2 + g) >>> 0;
      res[i * 4 + 3] = m >>> 0;
    }
  }
  return { cells, res, total: [total] };
}
