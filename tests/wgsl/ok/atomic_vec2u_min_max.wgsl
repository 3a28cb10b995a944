// atomic_vec2u_min_max: atomic<vec2<u32>> in read_write storage memory,
// updated with atomicStoreMax / atomicStoreMin.
enable atomic_vec2u_min_max;
struct S { hi: atomic<vec2u> }
@group(0) @binding(0) var<storage, read_write> a: array<atomic<vec2u>, 4>;
@group(0) @binding(1) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() {
  atomicStoreMax(&a[1], vec2u(3u, 4u));
  atomicStoreMin(&s.hi, vec2u(1u));
}
