// expect: 7:3 not a memory reference
// §Assignment Statement: a let holding a pointer is not itself a reference.
fn f() {
  var x = 1;
  var y = 2;
  let p = &x;
  p = &y;
}
@compute @workgroup_size(1) fn main() {}
