// expect: 5:3 not a memory reference
// §Increment and Decrement Statements: the operand is a reference.
fn f() {
  let x = 1;
  x++;
}
@compute @workgroup_size(1) fn main() {}
