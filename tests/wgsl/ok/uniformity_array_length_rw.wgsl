// §Uniformity Rules for Expressions: `&buf` does not load from the read_write
// buffer (its value is CF), so arrayLength's result is uniform.
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(64) fn main() {
  for (var k = 0u; k < arrayLength(&buf); k++) { workgroupBarrier(); }
}
