// expect: 5:14 already declared at module scope
// §Declaration and Scope: two module-scope declarations cannot share a name
// (same end of scope).
const a = 1;
var<private> a: i32;
@compute @workgroup_size(1) fn main() {}
