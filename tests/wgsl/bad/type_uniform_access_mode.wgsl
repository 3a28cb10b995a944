// expect: 3:27 only storage variables take an access mode
// §var Declarations: only storage variables name an access mode.
@group(0) @binding(0) var<uniform, read> b: u32;
@compute @workgroup_size(1) fn main() {}
