// expect: 3:30 all be i32 or all be u32
// §workgroup_size: all parameters must be the same type (i32 or u32).
@compute @workgroup_size(8i, 2u) fn main() {}
