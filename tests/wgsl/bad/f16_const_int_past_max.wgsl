// expect: 4:11 not representable in f16
enable f16;
// an integer above 65504 is outside f16's finite range, even below 65520
const c = f16(65505i);
@compute @workgroup_size(64) fn main() {}
