// expect: 4:19 must be const-expressions
// §Switch Statement: case selectors are const-expressions.
fn f(x: i32, y: i32) {
  switch x { case y { } default { } }
}
@compute @workgroup_size(1) fn main() {}
