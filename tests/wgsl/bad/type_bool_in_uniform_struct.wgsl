// expect: 4:39 not host-shareable
// §Host-shareable Types: a structure with a bool member is not host-shareable.
struct S { f: f32, b: bool }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn main() {}
