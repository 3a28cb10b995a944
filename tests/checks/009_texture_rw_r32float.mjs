// Model of kernels/009_texture_rw_r32float.wgsl: each texel of the 10x6
// r32float image becomes x = x * scale + bias three times (an f32 multiply
// and an f32 add each step, no fused multiply-add). The load past the right
// edge adds its y and z (0 whichever result WGSL's out-of-bounds rule picks:
// docs/spec-notes.md) and 0 for a w of 0 or 1, so it adds +0. The store at
// x = -1 is never executed, so every texel keeps its own value.
const f = Math.fround;

export default function ({ init }) {
  const img = init.img.f32;
  const [scale, bias] = [init.params.f32[0], init.params.f32[1]];
  const out = new Array(img.length);
  for (let i = 0; i < img.length; i++) {
    let x = img[i];
    for (let k = 0; k < 3; k++) x = f(f(x * scale) + bias);
    out[i] = f(x + 0);
  }
  return { img: out };
}
