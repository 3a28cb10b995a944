// expect: 3:11 outside its domain
// §Numeric Built-in Functions: log of 0 is not finite.
const a = log(0.0);
@compute @workgroup_size(1) fn main() {}
