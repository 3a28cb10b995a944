// expect: 4:10 cannot index
// §Array Access Expression: only arrays, vectors and matrices are indexed.
fn f(x: f32) -> f32 {
  return x[0];
}
@compute @workgroup_size(1) fn main() {}
