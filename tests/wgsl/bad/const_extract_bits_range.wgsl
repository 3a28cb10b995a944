// expect: 5:10 extractBits: offset 28 + count 8 is more than 32 bits
// §extractBits: if count + offset is greater than the bit width and both
// are const-expressions, it is a shader-creation error.
fn f(e: u32) -> u32 {
  return extractBits(e, 28u, 8u);
}
@compute @workgroup_size(1) fn main() {}
