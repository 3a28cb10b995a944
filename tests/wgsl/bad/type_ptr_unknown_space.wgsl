// expect: 3:13 expected an address space
// §Pointer Types: the address space must be one of the address spaces.
fn f(p: ptr<global, i32>) {}
@compute @workgroup_size(1) fn main() {}
