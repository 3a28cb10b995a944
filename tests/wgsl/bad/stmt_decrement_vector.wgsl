// expect: 5:3 '--' needs an i32 or u32
// §Increment and Decrement Statements: vectors cannot be decremented.
fn f() {
  var v = vec2i();
  v--;
}
@compute @workgroup_size(1) fn main() {}
