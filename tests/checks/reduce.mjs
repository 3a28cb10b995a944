// The tree reduction of the 001 kernels, in the shader's order: for
// s = TAM/2, TAM/4, ..., 1, lane li < s adds buf[li + s] into buf[li], each
// addition rounded to f32.
export function treeSum(values, TAM) {
  const buf = Float32Array.from(values);
  if (buf.length !== TAM) throw new Error('chunk size');
  for (let s = TAM >>> 1; s > 0; s >>>= 1)
    for (let li = 0; li < s; li++) buf[li] = Math.fround(buf[li] + buf[li + s]);
  return buf[0];
}
