// expect: 4:12 invalid vector swizzle 'xg'
// §Vector Multiple Component Selection: xyzw and rgba letters do not mix.
fn f(v: vec4f) -> vec2f {
  return v.xg;
}
@compute @workgroup_size(1) fn main() {}
