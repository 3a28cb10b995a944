// expect: 4:39 cannot hold runtime-sized arrays or atomics
// §Address Spaces: uniform memory holds constructible host-shareable types; atomics are not constructible.
struct S { a: atomic<u32> }
@group(0) @binding(0) var<uniform> u: S;
@compute @workgroup_size(1) fn main() {}
