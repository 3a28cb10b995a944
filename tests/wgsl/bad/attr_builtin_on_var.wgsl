// expect: 3:1 '@builtin' is not allowed here
// §builtin: must only be applied to an entry point parameter, return type, or member of a structure.
@builtin(position) var<private> p: vec4f;
@compute @workgroup_size(1) fn main() {}
