// expect: 5:12 argument: expected i32
// §Function Calls: each argument has its parameter's type (after automatic conversion).
fn g(a: i32) -> i32 { return a; }
fn f() -> i32 {
  return g(1.5);
}
@compute @workgroup_size(1) fn main() {}
