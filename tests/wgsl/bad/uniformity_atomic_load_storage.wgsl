// expect: 5:31 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: atomicLoad of read_write storage is non-uniform.
@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
@compute @workgroup_size(64) fn main() {
  if (atomicLoad(&c) == 0u) { workgroupBarrier(); }
}
