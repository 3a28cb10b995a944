// expect: 5:3 use atomicStore
// §Atomic Types: an atomic is only accessed through the atomic built-ins.
var<workgroup> a: atomic<u32>;
@compute @workgroup_size(1) fn main() {
  a = 1u;
}
