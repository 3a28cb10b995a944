// expect: 3:11 overflows u32
// §Bit Expressions: for a const u32 shift left, the top e2 bits of e1 must be 0.
const a = 2u << 31u;
@compute @workgroup_size(1) fn main() {}
