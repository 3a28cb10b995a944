// expect: 5:11 cannot take the address of a vector component
// §Address-Of Expression: the address of a vector component cannot be taken.
fn f() {
  var v = vec4f();
  let p = &v.x;
}
@compute @workgroup_size(1) fn main() {}
