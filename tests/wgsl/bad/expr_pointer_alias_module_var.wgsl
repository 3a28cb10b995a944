// expect: 8:5 also reads it directly
// §Alias Analysis: a pointer argument to a module-scope variable aliases the callee's own access to it.
var<private> x: i32;
fn f(p: ptr<private, i32>) {
  *p = x + 1;
}
fn g() {
  f(&x);
}
@compute @workgroup_size(1) fn main() {}
