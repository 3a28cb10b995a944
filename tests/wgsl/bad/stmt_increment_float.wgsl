// expect: 5:3 '++' needs an i32 or u32
// §Increment and Decrement Statements: the operand is an i32 or u32 reference.
fn f() {
  var x = 1.0;
  x++;
}
@compute @workgroup_size(1) fn main() {}
