// expect: 4:24 unresolved identifier 'x'
// §Declaration and Scope: one function cannot see another function's locals.
fn g() { let x = 1; }
fn f() -> i32 { return x; }
@compute @workgroup_size(1) fn main() {}
