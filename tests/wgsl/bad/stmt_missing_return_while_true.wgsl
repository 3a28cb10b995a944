// expect: 5:4 'f' must return a value on every path
// §Statements Behavior Analysis: `while c { s }` is `loop { if !c { break; } s }`;
// the analysis does not evaluate c, so a while loop can always finish with
// Next, even `while true`.
fn f() -> i32 {
  while true { return 1; }
}
@compute @workgroup_size(1) fn main() {}
