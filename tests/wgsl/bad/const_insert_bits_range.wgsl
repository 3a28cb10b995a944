// expect: 5:10 insertBits: offset 30 + count 4 is more than 32 bits
// §insertBits: if count + offset is greater than the bit width and both
// are const-expressions, it is a shader-creation error.
fn f(e: i32, n: i32) -> i32 {
  return insertBits(e, n, 30u, 4u);
}
@compute @workgroup_size(1) fn main() {}
