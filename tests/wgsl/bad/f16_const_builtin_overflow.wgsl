// expect: 4:11 does not fit its type
enable f16;
// exp(12) = 162754.79..., far beyond 65504
const e = exp(12h);
@compute @workgroup_size(64) fn main() {}
