// expect: 4:20 cannot be immediate data
// §Address Spaces: the store type of an immediate data variable excludes
// arrays and structures that contain array members.
var<immediate> pc: array<u32, 4>;
@compute @workgroup_size(1) fn main() { _ = pc[0]; }
