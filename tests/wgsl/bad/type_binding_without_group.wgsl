// expect: 3:26 needs @group and @binding
// §Resource Interface: @binding without @group is an error.
@binding(0) var<storage> b: u32;
@compute @workgroup_size(1) fn main() {}
