// expect: 5:11 no value
// §let Declarations: a let needs a value; a call without a return type has none.
fn g() {}
fn f() {
  let x = g();
}
@compute @workgroup_size(1) fn main() {}
