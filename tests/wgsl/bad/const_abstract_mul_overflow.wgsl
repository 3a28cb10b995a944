// expect: 4:11 overflows abstract-int
// §Abstract Numeric Types: an AbstractInt evaluation must not overflow
// (2^32 * 2^32 = 2^64 is beyond 64-bit two's complement).
const a = 4294967296 * 4294967296;
@compute @workgroup_size(1) fn main() {}
