// expect: 4:11 duplicate attribute '@group'
// §Attributes: an attribute must not be specified more than once per object
// (the diagnostic attribute is the exception, for different rules).
@group(0) @group(1) @binding(0) var<storage> b: u32;
@compute @workgroup_size(1) fn main() { _ = b; }
