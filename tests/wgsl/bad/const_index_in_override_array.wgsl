// expect: 5:7 cannot be stored in a function variable
// §Array Types: an override-expression cannot size a function variable array.
override n = 4;
fn f() {
  var a: array<f32, n>;
}
@compute @workgroup_size(1) fn main() {}
