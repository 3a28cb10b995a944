// expect: 8:5 must only be called from uniform control flow
// §Uniformity Analysis: after a continue under a non-uniform condition,
// the rest of the loop body is non-uniform.
@group(0) @binding(0) var<storage, read_write> buf: array<u32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < 4u; k++) {
    if (i == k) { continue; }
    workgroupBarrier();
  }
}
