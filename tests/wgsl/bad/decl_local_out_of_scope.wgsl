// expect: 5:11 unresolved identifier 'a'
// §Declaration and Scope: a declaration in a block ends with the block.
fn f() {
  { let a = 1; }
  let b = a;
}
@compute @workgroup_size(1) fn main() {}
