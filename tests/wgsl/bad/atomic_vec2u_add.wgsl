// expect: 6:17 atomicAdd does not apply to atomic<vec2<u32>>
// atomic_vec2u_min_max adds only atomicStoreMax and atomicStoreMin.
enable atomic_vec2u_min_max;
@group(0) @binding(0) var<storage, read_write> a: atomic<vec2u>;
@compute @workgroup_size(1) fn main() {
  _ = atomicAdd(&a, vec2u(1u));
}
