// §Declaration and Scope: module-scope declarations may be used before
// they appear.
fn f() -> S { return S(K); }
struct S { a: i32 }
const K = 4;
@compute @workgroup_size(1) fn main() {}
