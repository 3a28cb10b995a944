// expect: 5:3 no operator
// §Compound Assignment: e1 op= e2 must type-check as e1 = e1 op e2; i32 + f32 has no overload.
fn f() {
  var x: i32 = 1;
  x += 1.5;
}
@compute @workgroup_size(1) fn main() {}
