// expect: 3:1 only uniform and storage variables take @group/@binding
// §Attributes (group, binding): only resource variables take them.
@group(0) @binding(0) var<private> p: u32;
@compute @workgroup_size(1) fn main() {}
