// expect: 4:26 must be const- or override-expressions
// §workgroup_size: each parameter is a const- or override-expression.
var<private> n: u32 = 4u;
@compute @workgroup_size(n) fn main() {}
