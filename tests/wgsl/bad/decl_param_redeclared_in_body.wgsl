// expect: 5:7 already declared in this scope
// §Declaration and Scope: a parameter is in scope across the function body;
// a top-level declaration of the body with its name has the same end of scope.
fn f(a: i32) {
  let a = 2;
}
@compute @workgroup_size(1) fn main() {}
