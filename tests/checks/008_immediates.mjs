// Model of kernels/008_immediates.wgsl: each dispatch writes
// out[first + i] = src[i] * scale + offset for i < count (f32), from its
// immediate words; the rest of out keeps its -7.
const f = Math.fround;

export default function ({ spec, init }) {
  const src = init.src.f32;
  const out = new Array(init.out.f32.length).fill(-7);
  const bits = new DataView(new ArrayBuffer(4));
  const asF32 = (u) => (bits.setUint32(0, u, true), bits.getFloat32(0, true));
  for (const d of spec.dispatches) {
    const [count, scale, offset, first] = d.immediates;
    for (let i = 0; i < count; i++) out[first + i] = f(f(src[i] * asF32(scale)) + asF32(offset));
  }
  return { out };
}
