// expect: 4:10 unresolved function 'nope'
// §Function Calls: the callee must be declared.
fn f() -> i32 {
  return nope(1);
}
@compute @workgroup_size(1) fn main() {}
