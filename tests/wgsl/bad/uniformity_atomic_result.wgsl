// expect: 6:5 must only be called from uniform control flow
// note: 5:7 control flow depends on this possibly non-uniform value
var<workgroup> a: atomic<u32>;
@compute @workgroup_size(64) fn main() {
  if (atomicAdd(&a, 1u) == 0u) {
    workgroupBarrier();
  }
}
