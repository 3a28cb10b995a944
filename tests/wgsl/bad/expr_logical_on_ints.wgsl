// expect: 4:10 no operator '&&'
// §Logical Expressions: && takes bool operands.
fn f() -> bool {
  return 1 && true;
}
@compute @workgroup_size(1) fn main() {}
