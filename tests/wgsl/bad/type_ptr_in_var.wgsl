// expect: 5:7 cannot be stored
// §var Declarations: the store type must be constructible (or fixed-footprint); a pointer is not storable.
fn f() {
  var x = 1;
  var p: ptr<function, i32> = &x;
}
@compute @workgroup_size(1) fn main() {}
