// expect: 3:4 must return a value on every path
// §Behavior Analysis: every switch clause must return for the switch to return.
fn f(x: i32) -> i32 {
  switch x {
    case 0 { return 1; }
    default { }
  }
}
@compute @workgroup_size(1) fn main() {}
