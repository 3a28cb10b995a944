// Closed forms for cases/201_v2_axpy_textures.json (wgsl-compute-case/2).
// x[i] = i / 2 (the side file), y starts at 1. The indirect dispatch
// (16 x 64 invocations, a = 2, n = 1024) makes y = 2x + 1 below 1024; the
// parameters written after that submit (a = -1, n = 4096) apply to the
// direct dispatch: y = x + 1 below 1024, 1 - x above. Every value is a
// multiple of 1/2 well inside f32's exact integers: no rounding.
// Textures: t0's texel (x, y) is the word 4y + x (rgba8uint: red = that
// number, green = blue = alpha = 0); it is copied to t1 and submitted, then
// writeTexture puts 0xaaaaaaaa at texels (1..2, 1..2); copyTextureToBuffer
// lays the 4 rows at 256-byte strides (64 words), the rest of the buffer
// stays zero. texsum adds the red bytes: 0 + ... + 15 - (5 + 6 + 9 + 10)
// + 4 * 0xaa = 770.
export default function () {
  const y = [];
  for (let i = 0; i < 4096; i++) y.push(i < 1024 ? i / 2 + 1 : 1 - i / 2);
  const texels = new Array(256).fill(0);
  let sum = 0;
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      const w = r >= 1 && r <= 2 && c >= 1 && c <= 2 ? 0xaaaaaaaa : 4 * r + c;
      texels[64 * r + c] = w;
      sum += w & 0xff;
    }
  return { y, texels, sum: [sum] };
}
