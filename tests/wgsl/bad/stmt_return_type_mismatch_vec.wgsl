// expect: 4:10 return value: expected vec4<f32>
// §Return Statement: vec3<f32> does not convert to vec4<f32>.
fn f() -> vec4f {
  return vec3f();
}
@compute @workgroup_size(1) fn main() {}
