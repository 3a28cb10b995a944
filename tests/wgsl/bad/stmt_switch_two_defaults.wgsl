// expect: 4:3 exactly one default
// §Switch Statement: a switch has exactly one default clause.
fn f(x: i32) {
  switch x { case 0, default { } default { } }
}
@compute @workgroup_size(1) fn main() {}
