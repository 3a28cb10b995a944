// frexp, modf and refract fold in const-expressions (values from the spec's
// definitions: e = fract * 2^exp with |fract| in [0.5, 1); whole = trunc(e),
// fract = e - trunc(e); refract's k < 0 gives the zero vector).
const_assert frexp(1.5).fract == 0.75;
const_assert frexp(1.5).exp == 1;
const_assert frexp(0.0).fract == 0.0 && frexp(0.0).exp == 0;
const_assert frexp(-3.0f).fract == -0.75 && frexp(-3.0f).exp == 2;
const_assert frexp(vec2f(8.0, 0.375)).exp.x == 4;
const_assert frexp(vec2f(8.0, 0.375)).fract.y == 0.75;
const_assert frexp(vec2f(8.0, 0.375)).exp.y == -1;
const_assert modf(1.5).fract == 0.5 && modf(1.5).whole == 1.0;
const_assert modf(-2.5).fract == -0.5 && modf(-2.5).whole == -2.0;
const_assert modf(vec3f(0.25, -7.75, 3.0)).whole.y == -7.0;
const_assert modf(vec3f(0.25, -7.75, 3.0)).fract.y == -0.75;
// total internal reflection: dot = -0.8, k = 1 - 6.25 * (1 - 0.64) = -1.25
const_assert refract(vec2f(0.6, -0.8), vec2f(0.0, 1.0), 2.5).x == 0.0;
const_assert refract(vec2f(0.6, -0.8), vec2f(0.0, 1.0), 2.5).y == 0.0;
// e3 = 1: the ray passes straight through
const_assert refract(vec2f(0.6, -0.8), vec2f(0.0, 1.0), 1.0).x == 0.6f;
const_assert refract(vec2f(0.6, -0.8), vec2f(0.0, 1.0), 1.0).y == -0.8f;
const r = frexp(vec4f(1.0, 2.0, 4.0, 0.5));
const_assert r.exp.x + r.exp.y + r.exp.z + r.exp.w == 6;
@compute @workgroup_size(1) fn main() {
  let a = frexp(1.5).exp;
  var m = modf(vec2f(-1.25, 2.5));
  m.whole = vec2f(0.0);
  _ = a; _ = m;
}
