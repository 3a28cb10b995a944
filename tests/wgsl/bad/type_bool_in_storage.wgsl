// expect: 3:39 not host-shareable
// §Address Spaces: storage memory holds host-shareable types; bool is not.
@group(0) @binding(0) var<storage> b: bool;
@compute @workgroup_size(1) fn main() {}
