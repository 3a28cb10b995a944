// expect: 4:11 infinity or NaN
enable f16;
// 0x7e00 is an f16 NaN, which a const-expression may not produce
const x = bitcast<vec2h>(0x7e00u);
@compute @workgroup_size(64) fn main() {}
