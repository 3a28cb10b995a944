// Constant float -> integer conversion (WGSL §Floating Point Conversion):
// truncate, then the nearest value the source type also represents
// exactly. From f32 the bounds are 2^31 - 128 and 2^32 - 256; from
// AbstractFloat (a double) they are the integer type's own limits.
const_assert i32(1e20f) == 2147483520i;
const_assert u32(1e20f) == 4294967040u;
const_assert i32(-1e20f) == i32(-2147483648);
const_assert u32(-1.0f) == 0u;
const_assert i32(-3.9f) == -3i;
const_assert u32(3.9f) == 3u;
const_assert i32(2147483648.0f) == 2147483520i;
const_assert i32(1e20) == 2147483647i;
const_assert u32(1e20) == 4294967295u;
const_assert i32(2147483647.5) == 2147483647i;

@compute @workgroup_size(1) fn main() {}
