// expect: 4:20 @size needs a member with a fixed size
// §Attributes (size): a member with @size needs a creation-fixed footprint;
// a runtime-sized array has none.
struct S { a: u32, @size(16) b: array<u32> }
@group(0) @binding(0) var<storage> s: S;
@compute @workgroup_size(1) fn main() {}
