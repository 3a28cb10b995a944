// §Uniformity Rules for Function Calls: the atomic's result is non-uniform, but a
// barrier after the if (behavior {Next}) is back in uniform control flow.
var<workgroup> a: atomic<u32>;
@compute @workgroup_size(64) fn main() {
  if (atomicAdd(&a, 1u) == 0u) { }
  workgroupBarrier();
}
