// expect: 5:36 two inputs use @color(0)
// chromium_experimental_framebuffer_fetch: two input variables cannot
// have the same @color attribute.
enable chromium_experimental_framebuffer_fetch;
@fragment fn f(@color(0) a: vec4f, @color(0) b: vec4f) -> @location(0) vec4f {
  return a + b;
}
