// expect: 4:23 select's condition must be bool
// §Logical Built-in Functions: select's condition is bool (or vecN<bool>).
fn f() -> i32 {
  return select(1, 2, 1);
}
@compute @workgroup_size(1) fn main() {}
