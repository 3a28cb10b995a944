// expect: 4:10 has no return type
// §Return Statement: a function without a return type returns no value.
fn f() {
  return 1;
}
@compute @workgroup_size(1) fn main() {}
