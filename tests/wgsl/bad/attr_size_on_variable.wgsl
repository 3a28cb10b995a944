// expect: 3:1 '@size' is not allowed here
// §size: must only be applied to a member of a structure type.
@size(16) var<private> x: f32;
@compute @workgroup_size(1) fn main() {}
