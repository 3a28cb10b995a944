// expect: 13:10 'a' is passed to 'f2' twice as a pointer and written through
// Two pointer arguments with one root identifier, one of them written by a
// function the callee calls (WGSL §Alias Analysis); Dawn reports the same
// position.
fn f1(p1: ptr<function, i32>, p2: ptr<function, i32>) {
  *p1 = *p2;
}
fn f2(p1: ptr<function, i32>, p2: ptr<function, i32>) {
  f1(p1, p2);
}
@compute @workgroup_size(1) fn main() {
  var a = 0;
  f2(&a, &a);
}
