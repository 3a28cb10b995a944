// §Value Constructor Built-in Functions: vecN() is the zero vector of
// AbstractInt, so it converts to any vector of the same size.
const z = vec3();
const_assert all(z == vec3(0, 0, 0));
fn f(a: vec2f) -> vec2f { return a; }
@compute @workgroup_size(1) fn main() {
  let u: vec4u = vec4();
  _ = u;
  _ = f(vec2());
}
