// §Uniformity Rules for Expressions: through a read-only storage pointer it is uniform.
@group(0) @binding(0) var<storage, read> b: u32;
fn f(p: ptr<storage, u32, read>) { if (*p == 0u) { workgroupBarrier(); } }
@compute @workgroup_size(64) fn main() { f(&b); }
