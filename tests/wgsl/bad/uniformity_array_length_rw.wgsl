// expect: 5:39 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: loading from the read_write buffer is non-uniform.
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(64) fn main() {
  for (var k = 0u; k < buf[0]; k++) { workgroupBarrier(); }
}
