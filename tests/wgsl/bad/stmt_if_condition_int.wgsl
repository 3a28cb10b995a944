// expect: 4:6 if condition: expected bool
// §If Statement: the condition is a bool.
fn f(x: i32) {
  if x { }
}
@compute @workgroup_size(1) fn main() {}
