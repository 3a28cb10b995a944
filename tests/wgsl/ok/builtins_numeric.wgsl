const a = sin(0.5) + cos(0.5) + pow(2.0, 3.0);
const_assert countOneBits(7u) == 3u;
const_assert firstLeadingBit(8u) == 3u;
@compute @workgroup_size(1) fn main() {
  let f = frexp(1.5f);
  let m = modf(2.5);
  let e: i32 = f.exp;
  let w: f32 = m.whole;
  let p = pack4x8unorm(vec4f(1.0));
  let d = dot(vec3f(1.0), vec3f(2.0));
  let x = mix(vec3f(0.0), vec3f(1.0), 0.5);
  let b = bitcast<u32>(1.0f) + extractBits(p, 1u, 3u);
  _ = e; _ = w; _ = d; _ = x; _ = b;
}
