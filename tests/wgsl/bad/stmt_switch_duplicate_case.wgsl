// expect: 4:33 duplicate case value 2
// §Switch Statement: case selector values are distinct.
fn f(x: i32) {
  switch x { case 1, 2 { } case 2 { } default { } }
}
@compute @workgroup_size(1) fn main() {}
