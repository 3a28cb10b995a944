// Model of kernels/009_texture_layers.wgsl: layer l of the 5x3 r32uint
// source goes to layer 3 - l of the destination as v * 3 + l * 1000 (u32
// arithmetic modulo 2^32) plus the texel of level 1, which is zero. The
// queries of a 5x3 texture with 4 layers and 3 levels: level sizes are
// max(1, size >> level) (WebGPU's mip level sizes): 5x3, 2x1, 1x1.
export default function ({ init }) {
  const W = 5, H = 3, L = 4;
  const src = init.src.u32;
  const dst = new Array(W * H * L);
  for (let l = 0; l < L; l++)
    for (let i = 0; i < W * H; i++)
      dst[(L - 1 - l) * W * H + i] = (Math.imul(src[l * W * H + i], 3) + l * 1000) >>> 0;
  const info = [W, H, L, 3, 2, 1, 1, 1];
  return { dst, info };
}
