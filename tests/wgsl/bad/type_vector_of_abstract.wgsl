// expect: 6:15 vector components must be
// §Vector Types: the component is a concrete scalar in a declared type.
fn f() {
  var v: vec2<bool>;
  var w: vec3<i32>;
  var x: vec4<array<i32, 1>>;
}
@compute @workgroup_size(1) fn main() {}
