// 512x512 f32 matrix multiply with 16x16 tiles of a and b staged in
// workgroup memory; the sum runs over k in the same order as the naive
// kernel, so both give the same bits.
const N = 512u;
const T = 16u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_id) l: vec3u) {
  var sum = 0.0;
  for (var t = 0u; t < N / T; t++) {
    ta[l.y][l.x] = a[g.y * N + t * T + l.x];
    tb[l.y][l.x] = b[(t * T + l.y) * N + g.x];
    workgroupBarrier();
    for (var k = 0u; k < T; k++) {
      sum += ta[l.y][k] * tb[k][l.x];
    }
    workgroupBarrier();
  }
  c[g.y * N + g.x] = sum;
}
