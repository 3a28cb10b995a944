// Every invocation stores to one texel. rgba8unorm: values 0.5 + i * 1e-5
// all encode to byte 128 (floor(0.5 + 255 x) = 128 for i = 0..7), so the
// texel's bytes are the same: a same-value race. rgba32float: the same
// vec4 from everyone (same value), then a vec4 whose w differs (a race).
@group(0) @binding(0) var a: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(1) var b: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  textureStore(a, vec2u(0u, 0u), vec4f(0.5 + f32(i) * 1e-5, 0.0, 0.0, 1.0));
  textureStore(b, vec2u(0u, 0u), vec4f(1.0, 2.0, 3.0, 4.0));
  textureStore(b, vec2u(1u, 0u), vec4f(1.0, 2.0, 3.0, f32(i)));
}
