// expect: 4:7 defined in terms of itself
// §Declaration and Scope: a module-scope declaration cannot be defined in
// terms of itself (no cycles).
const a: i32 = a + 1;
@compute @workgroup_size(1) fn main() {}
