// Matrices of f32: constructors (scalars, columns, zero, inferred), + - and
// the scalar, vector and matrix products, transpose, determinant, columns
// read and written with constant and runtime indices, and whole matrices
// loaded and stored in storage, uniform, workgroup, private and function
// memory. The inputs are small integers (and halves), so every product and
// sum is exact in f32 and the results are bit-exact on any implementation.

struct M3 {
  m: mat3x3<f32>, // 48 bytes: three columns at a 16-byte stride
  tail: f32,      // byte 48
}

struct Out {
  a: mat2x2f,       // word 0
  b: mat3x3f,       // word 4 (align 16), columns at 4, 8, 12
  c: mat4x4f,       // word 16
  d: mat2x3f,       // word 32, columns at 32, 36
  e: mat3x2f,       // word 40, columns at 40, 42, 44
  f: f32,           // word 46
  g: mat4x3f,       // word 48, columns at 48, 52, 56, 60
  h: mat3x4f,       // word 64
  k: mat2x4f,       // word 76
  l: mat4x2f,       // word 84
  v: vec4f,         // word 92: determinants
  w: vec4f,         // word 96: vector products, runtime indices
  s: f32,           // word 100
}                   // 104 words (size rounded to 16 bytes)

struct U {
  m: mat4x4f,       // word 0
  n: mat3x3f,       // word 16
  t: f32,           // word 28
}

@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outs: array<Out>;
@group(0) @binding(2) var<uniform> uni: U;
@group(0) @binding(3) var<storage, read> src: array<M3>;
@group(0) @binding(4) var<storage, read_write> dst: array<M3>;

var<workgroup> wm: array<mat2x2f, 32>;
var<private> pm: mat3x3f;

const K = mat2x2(1.0, 2.0, 3.0, 4.0) * mat2x2(0.5, 0, 0, 2); // folded
const KD = determinant(mat3x3f(2, 0, 0, 0, 3, 0, 1, 1, 4));      // 24

fn x(i: u32, k: u32) -> f32 {
  return f32(i32(inp[i * 16u + k]) - 8);
}

fn twice(m: mat2x3f) -> mat2x3f {
  return m + m;
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = gid.x;
  let A = mat2x2f(x(i, 0u), x(i, 1u), x(i, 2u), x(i, 3u));
  let B = mat3x3f(vec3f(x(i, 4u), x(i, 5u), x(i, 6u)), vec3(x(i, 7u), x(i, 8u), x(i, 9u)),
                  vec3(x(i, 10u), x(i, 11u), x(i, 12u)));
  var C: mat4x4f;
  for (var c = 0u; c < 4u; c++) {
    for (var r = 0u; r < 4u; r++) {
      C[c][r] = x(i, (c * 4u + r + i) % 16u);
    }
  }
  var o: Out;
  o.a = A * A + A - K;
  o.b = transpose(B) * B - 2.0 * B;
  o.c = C * uni.m + mat4x4<f32>();
  let d = mat2x3(B[0], B[1]) * 0.5;
  o.d = twice(d) * A;
  o.e = transpose(o.d) + mat3x2f(1, 2, 3, 4, 5, 6);
  o.f = uni.t;
  var g = mat4x3f(B[0], B[1], B[2], B[0] + B[1]);
  g = B * g;
  o.g = g;
  o.h = transpose(g);
  o.k = C * mat2x4f(C[0], C[3]);
  o.l = A * mat4x2f(vec2f(1, 0), vec2f(0, 1), A[1], A[0]);
  o.v = vec4f(determinant(A), determinant(B), determinant(C), determinant(uni.n) + KD);
  let j = i % 3u;
  let vb = vec3f(x(i, 13u), x(i, 14u), x(i, 15u));
  o.w = vec4f(dot(vb * B, B * vb), B[j][(j + 1u) % 3u], C[i % 4u].y, g[(i + 1u) % 4u][j]);
  C[i % 4u] = vec4f(7.0);
  C[(i + 1u) % 4u][j] = -1.0;
  o.s = C[0][0] + C[1][1] * 2.0 + C[2][2] * 4.0 + C[3][3] * 8.0;
  o.c += C * 0.5;

  // workgroup and private memory: whole matrices and columns
  wm[lid] = A;
  workgroupBarrier();
  let nb = wm[(lid + 1u) % 32u];
  o.l = o.l + mat4x2f(nb[0], nb[1], nb[0] * 2.0, wm[(lid + 31u) % 32u][1]);
  pm = B;
  pm[j] = pm[j] * 3.0;
  o.b = o.b + pm;
  outs[i] = o;

  // storage matrices inside structs: the f32 after a mat3x3 is at byte 48
  let s = src[i];
  var m = s.m;
  m[2] = m[2] + vec3f(s.tail);
  dst[i].m = m * uni.n;
  dst[i].tail = s.tail + src[i].m[1].z;
  dst[i].m[1].y = dst[i].m[1].y + 0.25;
}
