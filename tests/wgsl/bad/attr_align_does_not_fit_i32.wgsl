// expect: 5:10 @align must be an i32 or u32; 2147483648 does not fit i32 (write 2147483648u for a u32)
// §align: the argument resolves to an i32 or u32, so an AbstractInt must
// fit an i32.
struct S {
  @align(2147483648) a: f32,
}
