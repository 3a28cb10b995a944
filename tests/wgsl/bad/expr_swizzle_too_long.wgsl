// expect: 4:12 invalid vector swizzle 'xyzwx'
// §Vector Multiple Component Selection: a swizzle has at most four letters.
fn f(v: vec4f) -> vec4f {
  return v.xyzwx;
}
@compute @workgroup_size(1) fn main() {}
