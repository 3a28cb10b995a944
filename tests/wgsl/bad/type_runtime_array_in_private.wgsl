// expect: 3:17 only allowed in storage
// §Array Types: runtime-sized arrays are only in the storage address space.
var<private> a: array<u32>;
@compute @workgroup_size(1) fn main() {}
