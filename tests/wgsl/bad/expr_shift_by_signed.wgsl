// expect: 4:15 the shift amount must be u32
// §Bit Expressions: the shift amount is u32 (or vecN<u32>).
fn f(a: i32, b: i32) -> i32 {
  return a << b;
}
@compute @workgroup_size(1) fn main() {}
