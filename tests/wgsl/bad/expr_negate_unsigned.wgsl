// expect: 4:10 no operator '-'
// §Arithmetic Expressions: unary - takes a signed integer or float; u32 has no negation.
fn f(x: u32) -> u32 {
  return -x;
}
@compute @workgroup_size(1) fn main() {}
