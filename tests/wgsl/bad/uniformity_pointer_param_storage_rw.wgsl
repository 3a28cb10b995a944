// expect: 6:58 'workgroupBarrier' must only be called from uniform control flow
// note: 6:47 control flow depends on this possibly non-uniform value
// §Uniformity Rules for Expressions: a load through a pointer parameter to
// read_write storage is MayBeNonUniform.
@group(0) @binding(0) var<storage, read_write> b: u32;
fn f(p: ptr<storage, u32, read_write>) { if (*p == 0u) { workgroupBarrier(); } }
@compute @workgroup_size(64) fn main() { f(&b); }
