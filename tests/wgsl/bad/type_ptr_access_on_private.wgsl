// expect: 4:27 only pointers to storage may name an access mode
// §Pointer Types: only the storage address space takes an access mode in
// a pointer type... here read_write is spelled on private.
fn f(p: ptr<private, i32, read>) {}
@compute @workgroup_size(1) fn main() {}
