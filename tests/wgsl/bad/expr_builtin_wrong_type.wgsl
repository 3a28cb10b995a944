// expect: 4:10 no overload of 'sqrt'
// §Numeric Built-in Functions: sqrt takes floats.
fn f(x: i32) -> i32 {
  return sqrt(x);
}
@compute @workgroup_size(1) fn main() {}
