// expect: 3:11 not less than the bit width (32)
// §Bit Expressions: a const shift amount must be less than the bit width.
const a = 1u << 32u;
@compute @workgroup_size(1) fn main() {}
