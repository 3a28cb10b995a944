// expect: 3:11 sqrt of a negative value
// §Numeric Built-in Functions: sqrt of a negative const is outside its domain.
const a = sqrt(-4.0);
@compute @workgroup_size(1) fn main() {}
