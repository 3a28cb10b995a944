// expect: 3:11 not less than the bit width (32)
// §Bit Expressions: also for >>.
const a = 8i >> 40u;
@compute @workgroup_size(1) fn main() {}
