// expect: 4:16 cannot initialize
// §Conversion: there is no automatic conversion from i32 to f32.
fn f() {
  var a: f32 = 1i;
}
@compute @workgroup_size(1) fn main() {}
