// expect: 4:3 not a memory reference
// §Assignment Statement: parameters are values.
fn f(p: i32) {
  p = 2;
}
@compute @workgroup_size(1) fn main() {}
