// expect: 4:10 '*' needs a pointer
// §Indirection Expression: * applies to pointers.
fn f(x: i32) -> i32 {
  return *x;
}
@compute @workgroup_size(1) fn main() {}
