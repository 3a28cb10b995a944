// expect: 4:11 overflows
// §Bit Expressions (abstract shift left): the e2+1 most significant bits of
// e1 must have the same bit value; 1 << 64 loses the set bit.
const x = 1 << 64;
@compute @workgroup_size(1) fn main() {}
