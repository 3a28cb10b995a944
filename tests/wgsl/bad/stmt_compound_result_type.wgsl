// expect: 5:3 no operator
// §Compound Assignment: the result of e1 op e2 must have e1's type; i32 < i32 is bool.
fn f() {
  var x = vec2i();
  x *= mat2x2f();
}
@compute @workgroup_size(1) fn main() {}
