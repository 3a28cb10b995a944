// expect: 3:28 array element: expected i32
// §Value Constructor Built-in Functions: the elements convert to T.
const a = array<i32, 2>(1, 2.5);
@compute @workgroup_size(1) fn main() {}
