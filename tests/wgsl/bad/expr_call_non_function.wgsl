// expect: 5:3 is not a function
// §Function Calls: a variable is not callable.
fn f() {
  var v = 1;
  v(2);
}
@compute @workgroup_size(1) fn main() {}
