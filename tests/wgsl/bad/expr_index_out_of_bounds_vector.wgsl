// expect: 4:12 out of bounds
// §Vector Access Expression: a const index outside the vector is a shader-creation error.
fn f(v: vec3f) -> f32 {
  return v[3];
}
@compute @workgroup_size(1) fn main() {}
