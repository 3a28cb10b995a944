// expect: 4:11 must be a const-expression
// §const Declarations: an override-expression is not a const-expression.
override o = 1;
const c = o;
@compute @workgroup_size(1) fn main() {}
