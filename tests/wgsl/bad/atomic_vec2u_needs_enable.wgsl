// expect: 4:58 atomic<T> needs T = i32 or u32, found vec2<u32>
// §Atomic Types: T is i32 or u32; vec2<u32> needs atomic_vec2u_min_max.
// (`atomic<vec2u>` below.)
@group(0) @binding(0) var<storage, read_write> a: atomic<vec2u>;
@compute @workgroup_size(1) fn main() {}
