// Model of kernels/008_arrays.wgsl: every array as a JS array, copied with
// structuredClone where WGSL copies a value (let, assignment of a whole
// array or struct), so later writes to the source cannot reach the copy.
import { dispatchOf } from './util.mjs';
const u = (x) => x >>> 0;
const clone = (v) => structuredClone(v);
const zeroItem = () => ({ a: [0, 0], b: [0, 0, 0] });
const itemWords = (it) => [it.a[0], it.a[1], it.b[0], it.b[1], it.b[2]];

export default function ({ spec, init }) {
  const N = spec.pipelines.main.constants?.N ?? 64;
  const [groups] = dispatchOf(spec, 'main');
  const data = Array.from(init.data.u32);
  const n = data.length;
  const holderWords = init.holder.u32.length;
  const m = Math.floor((holderWords * 4 - 8) / 24);     // arrayLength(&holder.items)
  const holder = new Array(holderWords).fill(0xdeadbeef);
  holder[1] = null;                                     // padding
  const fixed = new Array(40).fill(0xdeadbeef);
  const out = new Array(init.out.u32.length).fill(0xdeadbeef);
  const K = 16;

  // per-invocation state that other invocations of the workgroup read
  const itemsOf = [];
  for (let x = 0; x < groups * N; x++) {
    const items = [zeroItem(), zeroItem(), zeroItem()];
    items[x % 3] = { a: [x, x + 1], b: [x * 2, x * 3, x * 4] };
    items[(x + 1) % 3].b[x % 3] = 42;
    itemsOf.push(items);
  }

  for (let g = 0; g < groups; g++) {
    const wga = [];
    for (let l = 0; l < 8; l++) wga[l] = (g * N + l) * 7 + 1;
    const witems = [];
    for (let l = 0; l < 4; l++) witems[l] = clone(itemsOf[g * N + l][l % 3]);
    for (let l = 0; l < 8; l++) fixed[g * 8 + l] = wga[l];
    for (let lid = 0; lid < N; lid++) {
      const x = g * N + lid, o = x * K;
      if (x < n) data[n - 1 - x] = u(data[n - 1 - x] + x * 1000 + n);
      if (x === 0) holder[0] = m;

      const fa = [];
      for (let k = 0; k < 5; k++) fa[k] = [k, x, k * x];
      fa[x % 5][1] += 100;
      fa[(x + 2) % 5][x % 3] = 7;
      const snapshot = clone(fa);
      fa[0] = [9, 9, 9];
      const s = snapshot[x % 5];
      out[o] = u(s[0] + s[1] * 10 + s[2] * 1000);
      out[o + 1] = u(snapshot[0][0] + snapshot[0][1] + fa[0][2] * 100000);
      const grid = [];
      for (let r = 0; r < 3; r++) { grid[r] = []; for (let c = 0; c < 4; c++) grid[r][c] = r * 10 + c + x; }
      grid[x % 3][Math.floor(x / 3) % 4] = 555;
      out[o + 2] = grid[x % 3][Math.floor(x / 3) % 4] + grid[2][3] * 1000;
      const row = grid[(x + 1) % 3];
      out[o + 3] = row[0] + row[1] * 2 + row[2] * 3 + row[3] * 4;
      const items = itemsOf[x];
      const it = items[(x + 1) % 3];
      out[o + 4] = it.a[0] + it.b[0] + it.b[1] * 100 + it.b[2] * 10000;

      const pa = [];
      for (let k = 0; k < 16; k++) pa[k] = k * k + x;
      pa[(x * 5) % 16] = 0;
      out[o + 5] = pa[x % 16] + pa[15 - (x % 16)] * 1000;
      const pitems = [clone(items[x % 3]), clone(items[(x + 1) % 3])];
      if (x < m) {
        const back = pitems[x % 2];
        itemWords(back).forEach((w, k) => { holder[2 + x * 6 + k] = w; });
        holder[2 + x * 6 + 5] = null;   // padding
        out[o + 6] = back.a[0] + back.a[1] * 1000 + back.b[2] * 7;
      }
      if (x === 5) pitems.forEach((p, j) => itemWords(p).forEach((w, k) => { fixed[16 + j * 6 + k] = w; }));
      if (x === 6) for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) fixed[28 + r * 4 + c] = grid[r][c];

      const tl = N - 1 - lid;
      out[o + 7] = (g * N + tl) + tl * 2 * 1000;
      out[o + 8] = wga[lid % 8] + wga[7] * 1000;
      const wi = witems[lid % 4];
      out[o + 9] = wi.a[1] + wi.b[lid % 3] * 100;
      out[o + 10] = (wi.a[0] + 5000) + wi.a[0];
    }
  }
  // from_private has padding after each Item (word 5 of each)
  fixed[16 + 5] = null; fixed[16 + 11] = null;
  return { data, holder, fixed, out };
}
