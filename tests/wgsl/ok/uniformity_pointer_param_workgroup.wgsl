// §Uniformity Rules for Function Calls: workgroupUniformLoad through the pointer
// parameter gives a uniform value.
var<workgroup> w: u32;
fn f(p: ptr<workgroup, u32>) { if (workgroupUniformLoad(p) == 0u) { workgroupBarrier(); } }
@compute @workgroup_size(64) fn main() { f(&w); }
