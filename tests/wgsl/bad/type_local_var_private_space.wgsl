// expect: 4:7 function address space
// §var Declarations: a function-scope var is in the function address space.
fn f() {
  var<private> x: i32;
}
@compute @workgroup_size(1) fn main() {}
