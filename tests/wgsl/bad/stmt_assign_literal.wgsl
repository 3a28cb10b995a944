// expect: 4:3 expected statement, found integer literal
// §Assignment Statement: the left-hand side must be a reference.
fn f() {
  1 = 2;
}
@compute @workgroup_size(1) fn main() {}
