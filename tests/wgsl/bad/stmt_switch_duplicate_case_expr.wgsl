// expect: 4:31 duplicate case value 2
// §Switch Statement: selectors are compared by value; 1 + 1 equals 2.
fn f(x: u32) {
  switch x { case 2u { } case 1u + 1u { } default { } }
}
@compute @workgroup_size(1) fn main() {}
