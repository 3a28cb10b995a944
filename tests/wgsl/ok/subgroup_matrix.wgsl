// chromium_experimental_subgroup_matrix (Dawn docs/dawn/features/
// subgroup_matrix.md): the three matrix types (<T, columns, rows>), their
// constructors, load/store through pointers to arrays of numbers, the
// multiplies (left<T, K, M> x right<T, N, K> -> result<TR, N, M>) and the
// scalar operations; matrices may sit in arrays, structs, lets and
// function or private variables.
enable chromium_experimental_subgroup_matrix;
struct Pair {
  l: subgroup_matrix_left<f32, 4, 8>,
  r: subgroup_matrix_right<f32, 2, 4>,
}
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@group(0) @binding(1) var<storage> words: array<vec4u>;
var<private> keep: subgroup_matrix_result<i32, 8, 8>;
fn pass_through(m: subgroup_matrix_left<f32, 4, 8>) -> subgroup_matrix_left<f32, 4, 8> { return m; }
@compute @workgroup_size(64) fn main() {
  let l = subgroupMatrixLoad<subgroup_matrix_left<f32, 4, 8>, row_major>(&buf, 0u, 4u);
  let r = subgroupMatrixLoad<subgroup_matrix_right<f32, 2, 4>, col_major>(&buf, 32i, 4);
  var p = Pair(pass_through(l), r);
  let prod: subgroup_matrix_result<f32, 2, 8> = subgroupMatrixMultiply<f32>(p.l, p.r);
  let acc = subgroupMatrixMultiplyAccumulate(l, r, prod);
  subgroupMatrixStore<row_major>(&buf, 0, subgroupMatrixScalarMultiply(acc, 2.0), 2);
  let bytes = subgroupMatrixLoad<subgroup_matrix_left<u8, 8, 8>, row_major>(&words, 0, 8);
  let wide = subgroupMatrixMultiply<u32>(bytes, subgroup_matrix_right<u8, 8, 8>(7));
  _ = subgroupMatrixScalarAdd(wide, 1u);
  keep = subgroup_matrix_result<i32, 8, 8>();
  var arr: array<subgroup_matrix_left<i8, 8, 8>, 2>;
  arr[1] = subgroup_matrix_left<i8, 8, 8>(-3);
}
