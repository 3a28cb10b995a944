// Model of kernels/005_pack.wgsl from the WGSL definitions of each pack and
// unpack function: floor(0.5 + scale * clamp(e)) per component, f16 with
// round to nearest even.
const f = Math.fround;
const f16bits = (x) => {
  // via a Float16 round trip done by hand: round to nearest even at 10 bits
  x = f(x);
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return s | 0x7c00;
  if (a < 2 ** -14) return s | roundEven(a * 2 ** 24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; if (2 ** (e + 1) <= a) e++;
  const m = roundEven((a / 2 ** e - 1) * 1024);
  return s | (((e + 15) << 10) + m);
};
const roundEven = (v) => { const r = Math.floor(v); const d = v - r; return d > 0.5 || (d === 0.5 && r % 2 === 1) ? r + 1 : r; };
const f16val = (h) => {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1 + m / 1024) * 2 ** (e - 15);
};
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);
const i8 = (b) => (b << 24) >> 24;

export default function ({ init }) {
  const F = init.fs.f32, W = init.ws.u32;
  const n = W.length;
  const pk = new Array(n * 12).fill(0), upf = new Array(n * 20).fill(0), upi = new Array(n * 8).fill(0);
  for (let i = 0; i < n; i++) {
    const fv = [F[4 * i], F[4 * i + 1], F[4 * i + 2], F[4 * i + 3]], w = W[i];
    const iv = fv.map((x) => Math.trunc(f(x * 200)));
    const uv = fv.map((x) => Math.trunc(f(Math.abs(x) * 300)));
    const bytes = (a) => ((a[0] & 255) | ((a[1] & 255) << 8) | ((a[2] & 255) << 16) | ((a[3] & 255) << 24)) >>> 0;
    const o = i * 12;
    const snorm8 = bytes(fv.map((x) => Math.floor(0.5 + 127 * clamp(x, -1, 1))));
    const unorm8 = bytes(fv.map((x) => Math.floor(0.5 + 255 * clamp(x, 0, 1))));
    pk[o] = snorm8;
    pk[o + 1] = unorm8;
    const h2 = (a, b) => ((a & 0xffff) | ((b & 0xffff) << 16)) >>> 0;
    pk[o + 2] = h2(Math.floor(0.5 + 32767 * clamp(fv[0], -1, 1)), Math.floor(0.5 + 32767 * clamp(fv[1], -1, 1)));
    pk[o + 3] = h2(Math.floor(0.5 + 65535 * clamp(fv[2], 0, 1)), Math.floor(0.5 + 65535 * clamp(fv[3], 0, 1)));
    pk[o + 4] = h2(f16bits(f(fv[0] * 1000)), f16bits(f(fv[1] * 1000)));
    pk[o + 5] = bytes(iv);
    pk[o + 6] = bytes(uv);
    pk[o + 7] = bytes(iv.map((x) => clamp(x, -128, 127)));
    pk[o + 8] = bytes(uv.map((x) => Math.min(x, 255)));
    let du = 0, di = 0;
    for (let k = 0; k < 4; k++) {
      du += ((w >>> (8 * k)) & 255) * ((unorm8 >>> (8 * k)) & 255);
      di += i8((w >>> (8 * k)) & 255) * i8((snorm8 >>> (8 * k)) & 255);
    }
    pk[o + 9] = du >>> 0;
    pk[o + 10] = di >>> 0;
    const wm = (w & 0x7bff7bff) >>> 0;
    pk[o + 11] = wm;
    const b = i * 20;
    for (let k = 0; k < 4; k++) {
      const by = (w >>> (8 * k)) & 255;
      upf[b + k] = f(Math.max(i8(by) / 127, -1));
      upf[b + 4 + k] = f(by / 255);
      upi[i * 8 + k] = i8(by) >>> 0;
      upi[i * 8 + 4 + k] = by;
    }
    const lo = w & 0xffff, hi = w >>> 16;
    upf[b + 8] = f(Math.max(((lo << 16) >> 16) / 32767, -1));
    upf[b + 9] = f(Math.max(((hi << 16) >> 16) / 32767, -1));
    upf[b + 10] = f(lo / 65535);
    upf[b + 11] = f(hi / 65535);
    upf[b + 12] = f16val(wm & 0xffff);
    upf[b + 13] = f16val(wm >>> 16);
    upf[b + 14] = f16val(f16bits(f(fv[0] * 100)));
    upf[b + 15] = f16val(f16bits(fv[1]));
    upf[b + 16] = fv[2];
    upf[b + 17] = fv[3];
  }
  return { pk, upf, upi };
}
