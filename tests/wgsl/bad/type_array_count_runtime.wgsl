// expect: 5:21 constant or an override
// §Array Types: the element count is a const- or override-expression.
fn f() {
  var n = 4;
  var a: array<f32, n>;
}
@compute @workgroup_size(1) fn main() {}
