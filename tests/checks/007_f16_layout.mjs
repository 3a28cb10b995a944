// Model of kernels/007_f16_layout.wgsl. Every output is laid out byte by
// byte at the offsets the WGSL memory layout rules give (written out by hand
// below from §Memory Layout: f16 size 2 align 2, vec2<f16> 4/4, vec3<f16>
// 6/8, vec4<f16> 8/8, matCxR<f16> = C columns of vecR<f16> at stride
// roundUp(align, size)); bytes no member covers stay as the buffers start
// (0). All arithmetic is on small integers and halves, exact in f16.
import { roundF16 as h, f16Bits, f16Value } from './f16.mjs';

class Bytes {
  constructor(n) { this.dv = new DataView(new ArrayBuffer(n)); }
  half(off, v) { this.dv.setUint16(off, f16Bits(v), true); }
  words() { return Array.from(new Uint32Array(this.dv.buffer)); }
}

// column-major 3x3 helpers: m[c][r]
const mulMV = (m, v) => [0, 1, 2].map((r) => m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2]);
const mulVM = (v, m) => m.map((col) => col[0] * v[0] + col[1] * v[1] + col[2] * v[2]);
const mulMM = (a, b) => b.map((col) => mulMV(a, col));
const transpose = (m) => [0, 1, 2].map((r) => m.map((col) => col[r]));
const det3 = (m) =>
  m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) -
  m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2]) +
  m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]);

export default function ({ init }) {
  const X = init.xs.f32, UW = init.um.u32;
  const n = X.length / 32, groups = n / 64;
  const uh = (byte) => f16Value((UW[byte >> 2] >>> (8 * (byte & 3))) & 0xffff);
  const um = [0, 1, 2].map((c) => [0, 1, 2].map((r) => uh(8 * c + 2 * r)));
  const uv = [0, 1, 2].map((r) => uh(24 + 2 * r)), uk = uh(30);

  const recs = new Bytes(80 * n), halves = new Bytes(512), mats = new Bytes(64 * n);
  for (let i = 0; i < n; i++) {
    const l = i % 64, wg = Math.floor(i / 64);
    const L = Array.from({ length: 32 }, (_, k) => h(X[32 * i + k]));
    const R = 80 * i;
    // Rec, leaf by leaf: [byte offset, leaf index]
    const at = [[0, 0], [8, 1], [10, 2], [12, 3], [14, 4],
      [16, 5], [18, 6], [20, 7], [24, 8], [26, 9], [28, 10],          // m: columns at 16 and 24
      [32, 11], [34, 12], [36, 13], [38, 14], [40, 15], [42, 16],     // arr: stride 4
      [48, 17], [50, 18], [52, 19], [54, 20], [56, 21], [58, 22], [60, 23], [62, 24], // inner: stride 8
      [64, 25], [66, 26], [68, 27], [70, 28], [72, 29], [74, 30],     // m2: columns at 64, 68, 72
      [76, 31]];
    for (const [off, k] of at) recs.half(R + off, L[k]);

    halves.half(2 * (l * groups + wg), i + 0.5);
    halves.half(2 * (128 + i), (63 - l) * 0.25);

    const s = (l & 3) + uk;
    const m = um.map((col) => col.map((x) => x * s));
    const M = 64 * i;
    mulMV(m, uv).forEach((x, r) => mats.half(M + 2 * r, x));
    mats.half(M + 6, det3(um) + (l & 7));
    mulMM(m, um).forEach((col, c) => col.forEach((x, r) => mats.half(M + 8 + 8 * c + 2 * r, x)));
    transpose(m).forEach((col, c) => col.forEach((x, r) => mats.half(M + 32 + 8 * c + 2 * r, x)));
    mulVM(uv, m).forEach((x, r) => mats.half(M + 56 + 2 * r, x));
  }
  return { recs: recs.words(), halves: halves.words(), mats: mats.words() };
}
