// expect: 5:7 already declared in this scope
// §Declaration and Scope: two declarations in one block cannot share a name.
fn f() {
  let a = 1;
  var a = 2;
}
@compute @workgroup_size(1) fn main() {}
