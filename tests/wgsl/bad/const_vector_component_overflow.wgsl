// expect: 3:11 overflows i32
// §Arithmetic Expressions: component-wise; one overflowing component is enough.
const a = vec2i(1, 2147483647) + vec2i(1, 1);
@compute @workgroup_size(1) fn main() {}
