// §Statements Behavior Analysis: `for (;;)` has no condition, so no
// implicit break: a body that always returns makes the loop {Return}; a
// loop whose body may return or go on is {Return} too, as is a loop left
// only by `break if` after the returns.
fn a() -> i32 { for (;;) { return 1; } }
fn b(x: i32) -> i32 {
  loop {
    if x > 2 { return x; }
  }
}
fn c(x: i32) -> i32 {
  var i = x;
  loop {
    i++;
    continuing { break if i > 10; }
  }
  return i;
}
@compute @workgroup_size(1) fn main() { _ = a() + b(1) + c(2); }
