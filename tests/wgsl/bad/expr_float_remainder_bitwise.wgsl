// expect: 4:10 no operator '&'
// §Bit Expressions: & takes integers (or bools), not floats.
fn f(a: f32, b: f32) -> f32 {
  return a & b;
}
@compute @workgroup_size(1) fn main() {}
