// expect: 3:17 'float4' is not a type
// §Declaration and Scope: a type name must resolve.
var<private> v: float4;
@compute @workgroup_size(1) fn main() {}
