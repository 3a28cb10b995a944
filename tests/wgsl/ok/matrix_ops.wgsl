// Matrix operators, constructors and const folding the resolver accepts.
const A = mat2x2(1.0, 2.0, 3.0, 4.0);
const_assert (A * vec2(1.0, 1.0)).y == 6.0;
const_assert (vec2(1.0, 1.0) * A).y == 7.0;
const_assert (A * A)[1][0] == 15.0;
const_assert (2 * A - A)[1][1] == 4.0;
const_assert determinant(A) == -2.0;
const_assert transpose(A)[0][1] == 3.0;
const_assert mat2x3(vec3(1, 2, 3), vec3(4, 5, 6))[1].z == 6.0;
const_assert mat3x2<f32>(mat3x2(1, 2, 3, 4, 5, 6))[2][0] == 5.0;
alias M = mat4x4f;
@compute @workgroup_size(1) fn main() {
  var m: M = M();
  m *= 2.0;
  m = m * m + m - m;
  var v = vec4f(1.0) * m;
  v = m * v;
  let t: mat3x4f = transpose(mat4x3f());
  let p: mat2x4f = t * mat2x3f();
  let q = mat2x2<f32>(mat2x2(0.5, 1, 2, 3));
}
