// expect: 4:17 'n' is not a type
// §Declaration and Scope: a value name is not a type.
const n = 3;
var<private> v: n;
@compute @workgroup_size(1) fn main() {}
