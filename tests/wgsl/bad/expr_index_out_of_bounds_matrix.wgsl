// expect: 4:12 out of bounds
// §Matrix Access Expression: a const column index outside the matrix is a shader-creation error.
fn f(m: mat2x3f) -> vec3f {
  return m[2];
}
@compute @workgroup_size(1) fn main() {}
