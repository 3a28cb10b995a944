// expect: 4:19 does not match the selector
// §Switch Statement: case selectors convert to the selector type; a u32 is not an i32.
fn f(x: i32) {
  switch x { case 1u { } default { } }
}
@compute @workgroup_size(1) fn main() {}
