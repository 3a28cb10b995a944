// expect: 3:11 overflows abstract-int
// §Arithmetic Expressions: AbstractInt overflows beyond 64 bits.
const a = 9223372036854775807 + 1;
@compute @workgroup_size(1) fn main() {}
