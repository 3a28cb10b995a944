// expect: 3:11 integer literal does not fit in u32
// §Numeric Literals: 4294967296u is out of range for u32.
const a = 4294967296u;
@compute @workgroup_size(1) fn main() {}
