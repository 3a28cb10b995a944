// expect: 6:23 must only be called from uniform control flow
// note: 6:7 control flow depends on this possibly non-uniform value
// §Uniformity Analysis: a read_write storage value may differ between invocations.
@group(0) @binding(0) var<storage, read_write> buf: array<u32, 64>;
@compute @workgroup_size(64) fn main() {
  if (buf[0] == 0u) { workgroupBarrier(); }
}
