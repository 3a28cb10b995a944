// expect: 5:10 smoothstep with equal edges
// §smoothstep: edge0 == edge1 is a shader-creation error when both are
// const-expressions, even though x is a runtime value.
fn f(x: f32) -> f32 {
  return smoothstep(1.0, 1.0, x);
}
@compute @workgroup_size(1) fn main() { _ = f(0.5); }
