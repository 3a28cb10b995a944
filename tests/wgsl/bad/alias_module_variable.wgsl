// expect: 9:6 'x' is passed to 'f6' as a pointer that reads while 'f6' also writes it directly
// A module-scope variable passed by pointer to a function that writes it
// directly; Dawn reports the same position.
var<private> x: i32 = 0;
fn f6(p: ptr<private, i32>) {
  x = *p;
}
@compute @workgroup_size(1) fn main() {
  f6(&x);
}
