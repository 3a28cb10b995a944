// expect: 3:14 needs @group and @binding
// §Resource Interface: a resource variable needs @group and @binding.
var<storage> b: u32;
@compute @workgroup_size(1) fn main() {}
