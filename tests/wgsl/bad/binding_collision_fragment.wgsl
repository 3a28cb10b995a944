// expect: 6:34 'a' and 'b' both use @group(0) @binding(0) in entry point 'main'
// §Resource Interface: two resource variables of one shader do not share a
// @group and @binding pair (the rule holds for every stage).
@group(0) @binding(0) var<storage> a: array<vec4f, 4>;
@group(0) @binding(0) var<uniform> b: vec4f;
@fragment fn main() { _ = a; _ = b; }
