// §Uniformity Rules for Function Calls: a function returning a uniform value
// (read-only storage) has no ReturnValueMayBeNonUniform tag.
@group(0) @binding(0) var<storage, read> b: u32;
fn fetch_value() -> u32 { return b; }
@compute @workgroup_size(64) fn main() {
  if (fetch_value() == 0u) { workgroupBarrier(); }
}
