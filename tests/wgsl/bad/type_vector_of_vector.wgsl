// expect: 3:22 vector components must be
// §Vector Types: the component type is a scalar.
var<private> v: vec2<vec2f>;
@compute @workgroup_size(1) fn main() {}
