// expect: 4:13 out of bounds
// §Array Access Expression: also on a const array value.
const a = array(1, 2, 3);
const b = a[3];
@compute @workgroup_size(1) fn main() {}
