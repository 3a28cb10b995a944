// expect: 8:9 passed to 'f' twice as a pointer and written through
// §Alias Analysis: a call must not pass two pointers to the same variable when one is written through.
fn f(p: ptr<function, i32>, q: ptr<function, i32>) {
  *p = *q;
}
fn g() {
  var x = 1;
  f(&x, &x);
}
@compute @workgroup_size(1) fn main() {}
