// expect: 4:45 cannot be a runtime-sized array
// §Array Types: the element type must have a creation-fixed footprint, so not
// a runtime-sized array.
@group(0) @binding(0) var<storage> a: array<array<u32>, 2>;
@compute @workgroup_size(1) fn main() {}
