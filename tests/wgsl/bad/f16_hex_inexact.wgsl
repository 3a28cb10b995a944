// expect: 4:11 cannot be exactly represented in f16
enable f16;
// 1 + 2^-11 needs 12 significand bits; f16 has 11
const x = 0x1.002p0h;
@compute @workgroup_size(64) fn main() {}
