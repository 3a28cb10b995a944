// expect: 5:3 not a memory reference
// §Assignment Statement: the left-hand side is a reference; a let is a value.
fn f() {
  let a = 1;
  a = 2;
}
@compute @workgroup_size(1) fn main() {}
