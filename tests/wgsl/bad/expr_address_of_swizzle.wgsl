// expect: 5:11 '&' needs a memory reference
// §Address-Of Expression: a multi-letter swizzle is a value, not a reference.
fn f() {
  var v = vec4f();
  let p = &v.xy;
}
@compute @workgroup_size(1) fn main() {}
