// expect: 5:45 a phony assignment cannot load array<u32> (it holds a runtime-sized array)
// §Phony Assignment: the right-hand side is constructible, a pointer, a
// texture or a sampler; a runtime-sized array is none of them.
@group(0) @binding(0) var<storage> x: array<u32>;
@compute @workgroup_size(1) fn main() { _ = x; }
