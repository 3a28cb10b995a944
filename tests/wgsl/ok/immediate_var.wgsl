// A var<immediate> (immediate_address_space): valid, and it runs
// (tests/unit/test_immediate.c).
var<immediate> pc: u32;
@group(0) @binding(0) var<storage, read_write> out: u32;
@compute @workgroup_size(1) fn main() { out = pc; }
