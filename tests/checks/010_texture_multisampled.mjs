// Model of kernels/010_texture_multisampled.wgsl: the two 4x2
// multisampled textures are zero-initialised and never written, so each
// of the 8 invocations writes (1, 1, 1, 1) for each of the 4 samples; the
// queries give the size and 4 samples.
export default function () {
  return { info: [4, 2, 4, 4, 4, 2, 8, 5], texels: new Array(8 * 4 * 4).fill(1) };
}
