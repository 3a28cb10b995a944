// expect: 4:37 @color is only for scalar or vector fragment shader inputs
// chromium_experimental_framebuffer_fetch: @color is only for fragment inputs.
enable chromium_experimental_framebuffer_fetch;
@compute @workgroup_size(1) fn main(@color(0) a: vec4f) {}
