// expect: 3:45 cannot have an initializer
// §var Declarations: storage variables take no initializer.
@group(0) @binding(0) var<storage> b: u32 = 1u;
@compute @workgroup_size(1) fn main() {}
