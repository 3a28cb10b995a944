// expect: 3:25 cannot have an initializer
// §var Declarations: workgroup variables take no initializer.
var<workgroup> w: u32 = 1u;
@compute @workgroup_size(1) fn main() {}
