// expect: 5:11 unresolved identifier 'a'
// §Declaration and Scope: inside a function a name is in scope only after
// its declaration.
fn f() {
  let b = a;
  let a = 1;
}
@compute @workgroup_size(1) fn main() {}
