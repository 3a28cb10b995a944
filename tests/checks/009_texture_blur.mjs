// Model of kernels/009_texture_blur.wgsl from WGSL's definitions: the
// rgba8unorm channel transfer function v / 255 (one f32 division), the
// 3x3 sum in loop order (dy outer, dx inner) with one f32 rounding per
// add, the average as an f32 division by 9, dot() as multiplies and adds
// left to right, and the store's inverse transfer function clamp(v, 0, 1)
// converted to 8 bits as floor(0.5 + 255 v) (pack4x8unorm's rounding, the
// one lockstep uses; docs/spec-notes.md).
const f = Math.fround;

export default function ({ init }) {
  const W = 13, H = 7;
  const src = init.src.u32;
  const texel = (x, y) => {
    const w = src[y * W + x];
    return [0, 1, 2, 3].map((c) => f(((w >>> (8 * c)) & 255) / 255));
  };
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const dst = new Array(W * H), mask = new Array(W * H);
  const kr = f(0.299), kg = f(0.587), kb = f(0.114);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let sum = [0, 0, 0, 0];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const t = texel(clamp(x + dx, 0, W - 1), clamp(y + dy, 0, H - 1));
          sum = sum.map((s, c) => f(s + t[c]));
        }
      const avg = sum.map((s) => f(s / 9));
      const bytes = avg.map((v) => Math.floor(f(0.5 + f(255 * clamp(v, 0, 1)))));
      dst[y * W + x] = (bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24)) >>> 0;
      let luma = f(avg[0] * kr);
      luma = f(luma + f(avg[1] * kg));
      luma = f(luma + f(avg[2] * kb));
      mask[y * W + x] = luma > 0.5 ? 1 : 0;
    }
  return { dst, mask };
}
