// expect: 4:12 an index must be i32 or u32
// §Array Access Expression: the index is i32 or u32.
fn f(v: vec3f) -> f32 {
  return v[1.0];
}
@compute @workgroup_size(1) fn main() {}
