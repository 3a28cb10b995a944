// expect: 4:11 not a finite f16
enable f16;
// 60000 + 10000 = 70000, beyond the f16 range (65504)
const s = 60000h + 10000h;
@compute @workgroup_size(64) fn main() {}
