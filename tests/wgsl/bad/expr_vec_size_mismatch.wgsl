// expect: 4:10 no operator '+'
// §Arithmetic Expressions: component-wise operands have the same size.
fn f(a: vec2f, b: vec3f) -> vec2f {
  return a + b;
}
@compute @workgroup_size(1) fn main() {}
