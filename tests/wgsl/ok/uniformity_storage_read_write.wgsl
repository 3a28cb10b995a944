// §Uniformity Rules for Expressions: a read-only module-scope variable (read-only
// storage) is uniform.
@group(0) @binding(0) var<storage, read> buf: array<u32, 64>;
@compute @workgroup_size(64) fn main() {
  if (buf[0] == 0u) { workgroupBarrier(); }
}
