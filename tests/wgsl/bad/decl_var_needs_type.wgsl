// expect: 4:7 needs a type or an initializer
// §var Declarations: a function var needs a type or an initializer.
fn f() {
  var v;
}
@compute @workgroup_size(1) fn main() {}
