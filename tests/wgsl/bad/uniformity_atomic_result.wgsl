// expect: 5:5 must only be called from uniform control flow
var<workgroup> a: atomic<u32>;
@compute @workgroup_size(64) fn main() {
  if (atomicAdd(&a, 1u) == 0u) {
    workgroupBarrier();
  }
}
