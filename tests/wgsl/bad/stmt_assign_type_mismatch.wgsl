// expect: 5:7 assignment: expected i32
// §Assignment Statement: the right-hand side has the store type.
fn f() {
  var a: i32;
  a = 1u;
}
@compute @workgroup_size(1) fn main() {}
