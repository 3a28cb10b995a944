// Dawn's swizzle_assignment language feature (a language extension is
// available without `requires`, §Language Extensions): a multi-letter
// swizzle of a writable vector reference or pointer can be assigned, also
// compound, nested and indexed.
@group(0) @binding(0) var<storage, read_write> buf: vec4u;
@compute @workgroup_size(1) fn main() {
  var v = vec4u(1, 2, 3, 4);
  v.zy = vec2(5, 6);
  v.yz.yx = vec2(7, 8);
  v.rgb *= vec3(2);
  v.xyz[1] = 9;
  let p = &buf;
  p.wx = vec2u(0u, 1u);
}
