// expect: 5:3 cannot assign to this
// A multi-component swizzle is a value, never a memory reference (WGSL §Vector Access Expression: only single-component access yields a reference).
@compute @workgroup_size(1) fn main() {
  var v = vec3u(1u, 2u, 3u);
  v.zx = vec2u(4u, 5u);
}
