// A value indexed by an override is an override-expression (§Override
// Expressions), evaluated at pipeline creation; the case sets k = 2:
//   vec4u(10, 20, 30, 40)[k]                 -> 30
//   array<u32, 3>(7, 8, 9)[k - 1u]           -> 8
//   vec3u(1, 2, 3)[k] + vec2u(5, 6)[k / 2u]  -> 3 + 6 = 9
// and inside a function, where the index is read at run time:
//   let t = vec4u(10, 20, 30, 40); t[k]      -> 30
override k: u32;
var<private> a = vec4u(10, 20, 30, 40)[k];
var<private> b = array<u32, 3>(7, 8, 9)[k - 1u];
var<private> c = vec3u(1, 2, 3)[k] + vec2u(5, 6)[k / 2u];
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(1) fn main() {
  let t = vec4u(10, 20, 30, 40);
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = t[k];
}
