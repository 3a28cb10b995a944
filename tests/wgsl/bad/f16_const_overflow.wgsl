// expect: 4:18 not representable in f16
enable f16;
// 65520 is the midpoint of 65504 and 2^16: it rounds (ties to even) past the largest f16
const big: f16 = 65520.0;
@compute @workgroup_size(64) fn main() {}
