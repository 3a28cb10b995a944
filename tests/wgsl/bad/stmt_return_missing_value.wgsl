// expect: 4:3 must return a value of type i32
// §Return Statement: a function with a return type returns a value.
fn f() -> i32 {
  return;
}
@compute @workgroup_size(1) fn main() {}
