// expect: 5:10 'f32' is not a type
// §Declaration and Scope: a let named f32 shadows the type; f32 then names the value, not the type.
fn f() {
  let f32 = 1;
  var x: f32;
}
@compute @workgroup_size(1) fn main() {}
