// expect: 4:3 must have a default clause
// §Switch Statement: a switch has exactly one default clause.
fn f(x: i32) {
  switch x { case 0 { } }
}
@compute @workgroup_size(1) fn main() {}
