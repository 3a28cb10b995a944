// Model of kernels/009_texture_blur.wgsl from WGSL's definitions: the
// rgba8unorm channel transfer function v / 255 (one f32 division), the
// 3x3 sum in loop order (dy outer, dx inner) with one f32 rounding per
// add, the average as an f32 division by 9, stored unchanged into the
// rgba32float texture (its transfer functions are the identity), and dot()
// as multiplies and adds left to right.
//
// The case compares dst with a relative bound rather than exactly, because
// WGSL lets an implementation reassociate the sum and gives division
// 2.5 ULP (the arithmetic is in the case's notes). The mask stays exact
// only because no texel's luma is within that bound of the 0.5 threshold:
// this model computes each texel's exact luma (from the integer channel
// sums, in f64) and throws if one is closer to 0.5 than 22 u |luma|
// (u = 2^-24), the worst error of any conforming evaluation.
const f = Math.fround;
const U = 2 ** -24;

export default function ({ init }) {
  const W = 13, H = 7;
  const src = init.src.u32;
  const byte = (x, y, c) => (src[y * W + x] >>> (8 * c)) & 255;
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const dst = new Array(4 * W * H), mask = new Array(W * H);
  const kr = f(0.299), kg = f(0.587), kb = f(0.114);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const sum = [0, 0, 0, 0], isum = [0, 0, 0, 0];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const px = clamp(x + dx, 0, W - 1), py = clamp(y + dy, 0, H - 1);
          for (let c = 0; c < 4; c++) {
            sum[c] = f(sum[c] + f(byte(px, py, c) / 255));
            isum[c] += byte(px, py, c);
          }
        }
      const avg = sum.map((s) => f(s / 9));
      for (let c = 0; c < 4; c++) dst[4 * (y * W + x) + c] = avg[c];
      let luma = f(avg[0] * kr);
      luma = f(luma + f(avg[1] * kg));
      luma = f(luma + f(avg[2] * kb));
      mask[y * W + x] = luma > 0.5 ? 1 : 0;
      // Exact luma of the exact averages isum / 2295 with the f32 weights;
      // f64 carries it to about 1e-16, far inside the margin.
      const exact = (isum[0] * kr + isum[1] * kg + isum[2] * kb) / 2295;
      const margin = Math.abs(exact - 0.5) / (U * exact);
      if (margin <= 22)
        throw new Error(`009_texture_blur: texel (${x}, ${y}) luma ${exact} lies within 22 u of 0.5; the mask would not be portable`);
    }
  return { dst, mask };
}
