// expect: 3:17 needs template arguments
// §Vector Types: a vector type in a declaration names its component type.
var<private> v: vec3;
@compute @workgroup_size(1) fn main() {}
