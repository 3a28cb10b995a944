// expect: 5:48 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: a load through a pointer parameter to a
// workgroup variable is MayBeNonUniform.
var<workgroup> w: u32;
fn f(p: ptr<workgroup, u32>) { if (*p == 0u) { workgroupBarrier(); } }
@compute @workgroup_size(64) fn main() { f(&w); }
