// Model of kernels/005_matrix.wgsl. Matrices are arrays of columns
// (m[c][r]), as in WGSL; every operation is rounded to f32 (all values are
// small integers or halves, so the rounding never changes anything). Out's
// words are written at the offsets the WGSL layout rules give, spelled out
// by hand below.
const f = Math.fround;

const mat = (cols, rows, xs) =>
  Array.from({ length: cols }, (_, c) => Array.from({ length: rows }, (_, r) => f(xs[c * rows + r])));
const add = (a, b) => a.map((col, c) => col.map((v, r) => f(v + b[c][r])));
const sub = (a, b) => a.map((col, c) => col.map((v, r) => f(v - b[c][r])));
const scale = (a, s) => a.map((col) => col.map((v) => f(v * s)));
const dotv = (x, y) => x.reduce((acc, v, k) => (k === 0 ? f(v * y[0]) : f(acc + f(v * y[k]))), 0);
const row = (m, r) => m.map((col) => col[r]);
// matrix * vector: result[r] = dot(row r, v)
const mulMV = (m, v) => m[0].map((_, r) => dotv(row(m, r), v));
// vector * matrix: result[c] = dot(v, column c)
const mulVM = (v, m) => m.map((col) => dotv(v, col));
// matrix * matrix: column c of the result is a * (column c of b)
const mulMM = (a, b) => b.map((col) => mulMV(a, col));
const transpose = (m) => m[0].map((_, r) => row(m, r));
function det(m) {
  const n = m.length;
  if (n === 2) return f(f(m[0][0] * m[1][1]) - f(m[1][0] * m[0][1]));
  let acc = 0;
  for (let r = 0; r < n; r++) {
    const minor = m.slice(1).map((col) => col.filter((_, k) => k !== r));
    const t = f(m[0][r] * det(minor));
    acc = r === 0 ? t : r & 1 ? f(acc - t) : f(acc + t);
  }
  return acc;
}
// writes matrix m at word w with column stride `stride` words
function put(out, w, m, stride) {
  m.forEach((col, c) => col.forEach((v, r) => (out[w + c * stride + r] = v)));
}

export default function ({ init }) {
  const inp = init.inp.u32, src = init.src.f32, U = init.uni.f32;
  const n = 64, W = 104;
  const outs = new Array(n * W).fill(0), dst = new Array(n * 16).fill(0);
  const um = mat(4, 4, U.slice(0, 16));
  const un = [U.slice(16, 19), U.slice(20, 23), U.slice(24, 27)].map((c) => c.map(f));
  const ut = f(U[28]);
  const K = mulMM(mat(2, 2, [1, 2, 3, 4]), mat(2, 2, [0.5, 0, 0, 2]));
  const KD = 24;
  const As = [];
  for (let i = 0; i < n; i++) {
    const x = (k) => f(inp[i * 16 + k] - 8);
    const A = mat(2, 2, [x(0), x(1), x(2), x(3)]);
    const B = mat(3, 3, [4, 5, 6, 7, 8, 9, 10, 11, 12].map(x));
    const C = mat(4, 4, Array.from({ length: 16 }, (_, k) => x((k + i) % 16)));
    As.push(A);
    const o = {};
    o.a = sub(add(mulMM(A, A), A), K);
    o.b = sub(mulMM(transpose(B), B), scale(B, 2));
    o.c = mulMM(C, um);
    const d = scale([B[0], B[1]], 0.5);
    o.d = mulMM(add(d, d), A);
    o.e = add(transpose(o.d), mat(3, 2, [1, 2, 3, 4, 5, 6]));
    o.f = ut;
    const g = mulMM(B, [B[0], B[1], B[2], add([B[0]], [B[1]])[0]]);
    o.g = g;
    o.h = transpose(g);
    o.k = mulMM(C, [C[0], C[3]]);
    o.l = mulMM(A, [[1, 0], [0, 1], A[1], A[0]]);
    o.v = [det(A), det(B), det(C), f(det(un) + KD)];
    const j = i % 3;
    const vb = [x(13), x(14), x(15)];
    o.w = [dotv(mulVM(vb, B), mulMV(B, vb)), B[j][(j + 1) % 3], C[i % 4][1], g[(i + 1) % 4][j]];
    const C2 = C.map((col) => col.slice());
    C2[i % 4] = [7, 7, 7, 7];
    C2[(i + 1) % 4][j] = -1;
    o.s = f(f(f(C2[0][0] + f(C2[1][1] * 2)) + f(C2[2][2] * 4)) + f(C2[3][3] * 8));
    o.c = add(o.c, scale(C2, 0.5));
    const pm = B.map((col) => col.slice());
    pm[j] = pm[j].map((v) => f(v * 3));
    o.b = add(o.b, pm);
    o.i = i;
    As[i] = o.a && A; // keep A for the workgroup exchange
    outs[i] = o;
  }
  const res = new Array(n * W).fill(0);
  for (let i = 0; i < n; i++) {
    const o = outs[i], lid = i % 32, base = i - lid;
    const nb = As[base + ((lid + 1) % 32)], pb = As[base + ((lid + 31) % 32)];
    const l = add(o.l, [nb[0], nb[1], nb[0].map((v) => f(v * 2)), pb[1]]);
    const w = i * W;
    put(res, w + 0, o.a, 2);
    put(res, w + 4, o.b, 4);
    put(res, w + 16, o.c, 4);
    put(res, w + 32, o.d, 4);
    put(res, w + 40, o.e, 2);
    res[w + 46] = o.f;
    put(res, w + 48, o.g, 4);
    put(res, w + 64, o.h, 4);
    put(res, w + 76, o.k, 4);
    put(res, w + 84, l, 2);
    o.v.forEach((v, k) => (res[w + 92 + k] = v));
    o.w.forEach((v, k) => (res[w + 96 + k] = v));
    res[w + 100] = o.s;
  }
  for (let i = 0; i < n; i++) {
    // src[i]: columns at words 16i, 16i+4, 16i+8; tail at 16i+12
    const s = (k) => f(src[i * 16 + k]);
    const m = [[s(0), s(1), s(2)], [s(4), s(5), s(6)], [s(8), s(9), s(10)]];
    const tail = s(12);
    m[2] = m[2].map((v) => f(v + tail));
    const r = mulMM(m, un);
    r[1][1] = f(r[1][1] + 0.25);
    put(dst, i * 16, r, 4);
    dst[i * 16 + 12] = f(tail + m[1][2]);
  }
  return { outs: res, dst };
}
