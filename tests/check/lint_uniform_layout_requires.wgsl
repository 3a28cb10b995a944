// The layouts of lint_uniform_layout.wgsl, in a module that requires the
// language extension uniform_buffer_standard_layout: where the extension
// is missing the requires-directive alone is a shader-creation error (WGSL
// §Language Extensions), so the layout does not change where the module
// runs and the lint says nothing (without the directive, the three
// variables are reported).
requires uniform_buffer_standard_layout;
struct S {
  x: f32,
}
struct AfterStruct {
  a: S,
  b: f32,
}
struct Strided {
  a: array<f32, 8>,
}
@group(0) @binding(0) var<uniform> after: AfterStruct;
@group(0) @binding(1) var<uniform> strided: Strided;
@group(0) @binding(2) var<uniform> pairs: array<vec2<u32>, 3>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= 64u) { return; }
  out[g.x] = after.b + strided.a[1] + f32(pairs[0].x);
}
