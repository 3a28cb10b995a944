// expect: 3:11 outside its domain
// §Numeric Built-in Functions: acos outside [-1, 1] is outside its domain.
const a = acos(2.0);
@compute @workgroup_size(1) fn main() {}
