// expect: 4:3 cannot be a statement
// §Function Call Statement: a value constructor is not a function call statement.
fn f() {
  vec2f(1.0);
}
@compute @workgroup_size(1) fn main() {}
