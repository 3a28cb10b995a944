// expect: 5:7 cannot be stored in a function variable
// §var Declarations: function variables hold constructible types; a
// runtime-sized array is not one.
fn f() {
  var a: array<u32>;
}
@compute @workgroup_size(1) fn main() {}
