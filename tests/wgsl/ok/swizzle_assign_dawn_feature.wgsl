// A multi-component swizzle is a value in the WGSL spec (§Vector Access
// Expression: only single-component access yields a reference), but Dawn's
// compiler accepts assignments to one (its swizzle_assignment language
// feature, used by its own test corpus). lockstep accepts the module with a
// warning that says so, and refuses to run it at pipeline creation.
@compute @workgroup_size(1) fn main() {
  var v = vec3u(1u, 2u, 3u);
  v.zx = vec2u(4u, 5u);
}
