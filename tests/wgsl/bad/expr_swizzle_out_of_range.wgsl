// expect: 4:12 invalid vector swizzle 'z'
// §Vector Single Component Selection: .z does not exist on a vec2.
fn f(v: vec2f) -> f32 {
  return v.z;
}
@compute @workgroup_size(1) fn main() {}
