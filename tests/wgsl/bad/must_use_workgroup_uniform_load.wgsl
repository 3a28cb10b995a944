// expect: 4:41 the result of 'workgroupUniformLoad' must be used
// §workgroupUniformLoad: @must_use.
var<workgroup> v: u32;
@compute @workgroup_size(1) fn main() { workgroupUniformLoad(&v); }
