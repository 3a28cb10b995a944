// expect: 5:3 not a memory reference
// §Assignment Statement: elements of a const are values.
const a = array<i32, 2>();
fn f() {
  a[0] = 1;
}
@compute @workgroup_size(1) fn main() {}
