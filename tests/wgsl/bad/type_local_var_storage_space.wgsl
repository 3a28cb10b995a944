// expect: 4:7 function address space
// §var Declarations: function-scope variables are in the function address space.
fn f() {
  var<storage> x: u32;
}
@compute @workgroup_size(1) fn main() {}
