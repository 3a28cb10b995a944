// Model of kernels/005_builtins_frexp_modf.wgsl. frexp from the f32 bits
// (x = fract * 2^exp, |fract| in [0.5, 1); zero gives (0, 0)); modf as
// trunc(x) and x - trunc(x), exact in double and in f32; refract by the
// spec's formula in double (k < 0: exactly 0), rounded once.
const f = Math.fround;
const N = 128;

function frexp(x) {
  x = f(x);
  if (x === 0) return [x, 0];
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, x);
  const e = ((dv.getUint32(0) >>> 23) & 0xff) - 126; // normal arguments only
  return [x / 2 ** e, e];
}

function modf(x) {
  const w = Math.trunc(x);
  return [x - w, w];
}

function refract(e1, e2, eta) {
  const d = e2[0] * e1[0] + e2[1] * e1[1] + e2[2] * e1[2];
  const k = 1 - eta * eta * (1 - d * d);
  if (k < 0) return [0, 0, 0];
  return e1.map((v, i) => eta * v - (eta * d + Math.sqrt(k)) * e2[i]);
}

export default function ({ init }) {
  const xs = init.xs.f32, ds = init.ds.f32, etas = init.etas.f32;
  const outf = new Array(12 * N).fill(0), outi = new Array(4 * N).fill(0);
  const cf = [0.1, -96, 6.0e-3, 12345].map(frexp);
  const cm = modf(f(-7.75));
  const cr = refract([f(0.6), f(-0.8), 0], [0, 1, 0], f(1.3));
  for (let i = 0; i < N; i++) {
    const x = xs[i];
    [outf[i], outi[i]] = frexp(x);
    [outf[N + i], outf[2 * N + i]] = modf(x);
    [outf[3 * N + i], outi[N + i]] = frexp(f(x * 0.25));
    outf[4 * N + i] = modf(-x)[0];
    outf[5 * N + i] = modf(f(x * 0.5))[1];
    outi[2 * N + i] = frexp(f(x * 3))[1] + 1;
    const t = refract([ds[3 * i], ds[3 * i + 1], ds[3 * i + 2]], [0, 1, 0], etas[i]);
    for (let k = 0; k < 3; k++) outf[(6 + k) * N + i] = f(t[k]);
    outf[9 * N + i] = f(cf[i % 4][0]);
    outi[3 * N + i] = cf[i % 4][1];
    outf[10 * N + i] = i % 2 === 1 ? cm[0] : cm[1];
    outf[11 * N + i] = f(cr[i % 3]);
  }
  return { outf: outf.map(f), outi };
}
