// expect: 5:11 '&' needs a memory reference
// §Address-Of Expression: & applies to references; a let is a value.
fn f() {
  let a = 1;
  let p = &a;
}
@compute @workgroup_size(1) fn main() {}
