// expect: 3:1 '@compute' is not allowed here
// §Shader Stage Attributes: compute applies to function declarations only.
@compute var<private> p: f32;
@compute @workgroup_size(1) fn main() {}
