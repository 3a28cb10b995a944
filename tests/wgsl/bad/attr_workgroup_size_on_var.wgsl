// expect: 3:1 '@workgroup_size' is not allowed here
// §workgroup_size: must only be applied to a compute shader entry point function.
@workgroup_size(1) var<private> x: f32;
@compute @workgroup_size(1) fn main() {}
