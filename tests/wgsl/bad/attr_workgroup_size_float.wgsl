// expect: 3:26 must be i32 or u32
// §workgroup_size: the parameters resolve to i32 or u32.
@compute @workgroup_size(8.0) fn main() {}
