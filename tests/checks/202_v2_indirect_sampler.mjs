// Closed forms for cases/202_v2_indirect_sampler.json (wgsl-compute-case/2).
// count writes ((100 + 63) / 64, 1, 1) = (2, 1, 1); square then runs 128
// invocations and writes i * i below 100; v started as 0xffffffff, which
// words 100..127 keep. The copy to the map-read buffer carries all 128.
// clearBuffer without offset or size zeroes the whole of v (words 96..127
// read back). The texture's four texels are 0.5, 1.5, 2.5, 3.5; a nearest
// sampler at texel centres returns them, and clamp-to-edge gives the edge
// texels for u = -1 and u = 2.
export default function () {
  const squares = [];
  for (let i = 0; i < 128; i++) squares.push(i < 100 ? i * i : 0xffffffff);
  return {
    squares,
    cleared: new Array(32).fill(0),
    args: [2, 1, 1],
    sampled: [0.5, 1.5, 2.5, 3.5, 0.5, 3.5],
  };
}
