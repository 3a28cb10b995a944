// expect: 4:11 overflows
// §Arithmetic Expressions: the most negative i32 divided by -1 overflows.
const m = -2147483647i - 1i;
const a = m / -1i;
@compute @workgroup_size(1) fn main() {}
