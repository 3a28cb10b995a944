// expect: 3:16 unknown attribute '@color'
// @color exists only under chromium_experimental_framebuffer_fetch.
@fragment fn f(@color(0) a: vec4f) -> @location(0) vec4f {
  return a;
}
