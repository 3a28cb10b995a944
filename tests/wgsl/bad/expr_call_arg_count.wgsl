// expect: 5:10 takes 1 argument, found 2
// §Function Calls: the argument count matches the parameter count.
fn g(a: i32) -> i32 { return a; }
fn f() -> i32 {
  return g(1, 2);
}
@compute @workgroup_size(1) fn main() {}
