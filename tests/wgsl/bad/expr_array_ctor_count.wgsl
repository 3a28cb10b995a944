// expect: 3:11 needs 3 elements, found 2
// §Value Constructor Built-in Functions: array<T, N>(...) takes N elements.
const a = array<i32, 3>(1, 2);
@compute @workgroup_size(1) fn main() {}
