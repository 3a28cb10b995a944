// §Bit Expressions (abstract shift left): AbstractInt has no bit width;
// only the overflow rule applies, and 0 shifted any amount is 0.
const_assert (0 << 100) == 0;
const_assert (1 << 62) == 4611686018427387904;
const_assert (-1 << 63) == -9223372036854775807 - 1;
@compute @workgroup_size(1) fn main() {}
