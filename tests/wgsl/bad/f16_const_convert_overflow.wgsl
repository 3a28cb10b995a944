// expect: 3:11 not representable in f16
enable f16;
const c = f16(100000i);
@compute @workgroup_size(64) fn main() {}
