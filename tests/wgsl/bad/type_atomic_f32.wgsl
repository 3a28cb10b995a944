// expect: 3:26 atomic<T> needs T = i32 or u32
// §Atomic Types: T is i32 or u32.
var<workgroup> a: atomic<f32>;
@compute @workgroup_size(1) fn main() {}
