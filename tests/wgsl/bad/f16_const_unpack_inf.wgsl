// expect: 3:11 infinity or NaN
// 0x7c00 is the f16 infinity: a constant unpack2x16float may not produce it
const x = unpack2x16float(0x7c00u);
@compute @workgroup_size(64) fn main() {}
