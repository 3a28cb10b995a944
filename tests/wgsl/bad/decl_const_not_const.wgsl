// expect: 5:13 must be a const-expression
// §const Declarations: the initializer must be a const-expression.
fn f() {
  var v = 1;
  const c = v;
}
@compute @workgroup_size(1) fn main() {}
