// Uniform buffers that keep to the uniform address space's stricter rules
// (WGSL §Address Space Layout Constraints, without the language extension
// uniform_buffer_standard_layout): the spec's own valid examples and the
// usual fixes. No uniform-standard-layout finding. Layout by hand:
struct S {                      // AlignOf 4, SizeOf 4
  x: f32,
}
struct Valid {                  // the spec's example: AlignOf 16, SizeOf 32
  a: S,                         // offset 0
  @align(16) b: f32,            // offset 16 = roundUp(16, SizeOf(S)) after 'a'
}
struct wrapped_f32 {            // AlignOf 4, SizeOf 16
  @size(16) elem: f32,
}
struct big_stride {
  a: array<wrapped_f32, 8>,     // stride 16, offset 0
}
struct Mixed {
  x: f32,                       // 0
  v: array<vec4<f32>, 2>,       // 16, stride 16
  m: mat3x3<f32>,               // 48 (matrices have no uniform-only rule)
  p: array<vec3<f32>, 2>,       // 96, stride 16
  q: array<mat2x2<f32>, 2>,     // 128, stride 16 (AlignOf 8, RequiredAlignOf 16)
  s: Valid,                     // 160
  y: f32,                       // 192: 32 = roundUp(16, SizeOf(Valid)) after 's'
}
struct Padded {
  x: f32,                       // 0
  @align(16) t: S,              // 16
  @align(16) u: vec2<f32>,      // 32: 16 bytes after 't'
}
struct Tight {                  // breaks the uniform rules, but is only storage
  a: S,
  b: array<f32, 3>,
}
@group(0) @binding(0) var<uniform> valid: Valid;
@group(0) @binding(1) var<uniform> big: big_stride;
@group(0) @binding(2) var<uniform> mixed: Mixed;
@group(0) @binding(3) var<uniform> padded: Padded;
@group(0) @binding(4) var<uniform> scale: vec4<f32>;
@group(0) @binding(5) var<uniform> rows: array<vec4<u32>, 4>;
// storage buffers have no stride-16 rule
@group(0) @binding(6) var<storage, read_write> out: array<f32>;
@group(0) @binding(7) var<storage> tight: Tight;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= 64u) { return; }
  out[g.x] = valid.b + big.a[g.x % 8u].elem + mixed.y + padded.u.y + scale.x + f32(rows[1].z) + tight.b[2];
}
