// expect: 3:20 no common type
// §Value Constructor Built-in Functions: inferred array elements need a common type.
const a = array(1, true);
@compute @workgroup_size(1) fn main() {}
