// expect: 5:3 not a memory reference
// §Assignment Statement: a const is a value, not a reference.
const c = 1;
fn f() {
  c = 2;
}
@compute @workgroup_size(1) fn main() {}
