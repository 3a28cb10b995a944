// expect: 3:4 must return a value on every path
// §Behavior Analysis: a function with a return type must return on every path; an if without else may fall through.
fn f(x: i32) -> i32 {
  if x > 0 { return 1; }
}
@compute @workgroup_size(1) fn main() {}
