// expect: 4:10 must be i32 or u32
// §Switch Statement: the selector is i32 or u32.
fn f(x: f32) {
  switch x { default { } }
}
@compute @workgroup_size(1) fn main() {}
