// expect: 4:10 no operator '~'
// §Bit Expressions: ~ takes an integer.
fn f(x: f32) -> f32 {
  return ~x;
}
@compute @workgroup_size(1) fn main() {}
