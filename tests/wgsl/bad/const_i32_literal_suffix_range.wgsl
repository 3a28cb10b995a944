// expect: 3:11 integer literal does not fit in i32
// §Numeric Literals: 2147483648i is out of range for i32.
const a = 2147483648i;
@compute @workgroup_size(1) fn main() {}
