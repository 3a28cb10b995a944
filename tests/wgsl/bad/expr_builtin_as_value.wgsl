// expect: 4:11 must be called
// §Built-in Functions: a built-in function must be called.
fn f() {
  let m = max;
}
@compute @workgroup_size(1) fn main() {}
