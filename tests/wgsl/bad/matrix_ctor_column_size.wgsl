// expect: 3:11 no constructor mat3x2<f32>(...)
@compute @workgroup_size(1) fn main() {
  let x = mat3x2f(vec3f(), vec3f(), vec3f());
}
