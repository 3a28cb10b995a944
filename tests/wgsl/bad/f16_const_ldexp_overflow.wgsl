// expect: 4:11 does not fit its type
enable f16;
// 1 * 2^16 = 65536, past the largest f16
const x = ldexp(1h, 16);
@compute @workgroup_size(64) fn main() {}
