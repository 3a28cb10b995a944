// expect: 4:16 const_assert failed
// §Const Assertion Statement: also inside a function body.
fn f() {
  const_assert 1 > 2;
}
@compute @workgroup_size(1) fn main() {}
