// expect: 7:30 must only be called from uniform control flow
// §Uniformity Analysis: a function returning a non-uniform value makes
// its call non-uniform.
@group(0) @binding(0) var<storage, read_write> b: u32;
fn fetch_value() -> u32 { return b; }
@compute @workgroup_size(64) fn main() {
  if (fetch_value() == 0u) { workgroupBarrier(); }
}
