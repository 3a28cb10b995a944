// expect: 5:3 assignment through a swizzle is not supported by lockstep yet
// Swizzle assignment is validated, not executed.
@compute @workgroup_size(1) fn main() {
  var v = vec4f();
  v.zy = vec2f(1.0, 2.0);
}
