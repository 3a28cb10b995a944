// expect: 3:11 out of range for f16
enable f16;
const x = 65520.0h;
@compute @workgroup_size(64) fn main() {}
