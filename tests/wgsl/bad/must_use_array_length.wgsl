// expect: 4:41 the result of 'arrayLength' must be used
// §arrayLength: @must_use, so a call cannot be a statement of its own.
@group(0) @binding(0) var<storage> a: array<u32>;
@compute @workgroup_size(1) fn main() { arrayLength(&a); }
