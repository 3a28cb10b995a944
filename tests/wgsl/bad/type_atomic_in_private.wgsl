// expect: 3:17 not allowed in private memory
// §Atomic Types: atomics live in storage or workgroup memory.
var<private> a: atomic<u32>;
@compute @workgroup_size(1) fn main() {}
