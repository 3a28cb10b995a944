// expect: 4:10 no operator '+'
// §Arithmetic Expressions: concrete operands of different types do not mix.
fn f(a: i32, b: u32) -> i32 {
  return a + b;
}
@compute @workgroup_size(1) fn main() {}
