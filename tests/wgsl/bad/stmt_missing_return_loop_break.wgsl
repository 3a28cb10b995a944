// expect: 5:4 'f' must return a value on every path
// §Statements Behavior Analysis: a loop with a break can finish with Next,
// so the body of a function with a return type is not {Return}.
// (lockstep treated every `loop` as never falling through.)
fn f(x: i32) -> i32 {
  loop {
    if x > 0 { break; }
    return 1;
  }
}
@compute @workgroup_size(1) fn main() {}
