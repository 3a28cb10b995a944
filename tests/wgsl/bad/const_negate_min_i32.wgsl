// expect: 4:11 overflows
// §Arithmetic Expressions: negating the most negative i32 overflows.
const m = -2147483647i - 1i;
const a = -m;
@compute @workgroup_size(1) fn main() {}
