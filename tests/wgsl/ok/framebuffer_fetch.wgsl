// chromium_experimental_framebuffer_fetch (Dawn docs/tint/extensions/
// chromium_experimental_framebuffer_fetch.md): @color(N) on scalar or
// vector fragment inputs reads attachment N, next to ordinary inputs.
enable chromium_experimental_framebuffer_fetch;
struct In { @location(0) uv: vec4f }
@fragment fn f(@builtin(position) pos: vec4f, @color(0) prev: vec4f, @color(1) count: u32, i: In) -> @location(0) vec4f {
  return prev + i.uv + vec4f(pos.x, f32(count), 0.0, 0.0);
}
