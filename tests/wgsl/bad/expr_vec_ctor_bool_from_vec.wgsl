// expect: 4:10 no constructor vec4<f32>
// §Value Constructor Built-in Functions: component-wise conversion keeps the size; vec4 from vec3 is not one.
fn f(v: vec3f) -> vec4f {
  return vec4f(v);
}
@compute @workgroup_size(1) fn main() {}
