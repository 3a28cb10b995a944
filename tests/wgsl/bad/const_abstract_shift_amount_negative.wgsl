// expect: 4:11 value -1 does not fit in u32
// §Bit Expressions (abstract shift right): e2 is u32 even when e1 is
// AbstractInt, so a negative amount has no conversion.
const a = 8 >> -1;
@compute @workgroup_size(1) fn main() {}
