// Naive 512x512 f32 matrix multiply: one invocation per element of c,
// 16x16 workgroups, every operand read from the storage buffers.
const N = 512u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) g: vec3u) {
  var sum = 0.0;
  for (var k = 0u; k < N; k++) {
    sum += a[g.y * N + k] * b[k * N + g.x];
  }
  c[g.y * N + g.x] = sum;
}
