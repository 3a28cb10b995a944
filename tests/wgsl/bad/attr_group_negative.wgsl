// expect: 3:8 must not be negative
// §group: the parameter must be non-negative.
@group(-1) @binding(0) var<storage> b: u32;
@compute @workgroup_size(1) fn main() {}
