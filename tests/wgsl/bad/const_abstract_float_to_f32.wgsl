// expect: 3:16 is not representable in f32
// §Conversion: an AbstractFloat too large for f32 does not convert.
const a: f32 = 1e300;
@compute @workgroup_size(1) fn main() {}
