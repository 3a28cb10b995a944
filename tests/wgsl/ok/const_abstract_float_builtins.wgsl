// The AbstractFloat (and, for dot, AbstractInt) overloads of §frexp,
// §modf and the vector and matrix built-ins: with abstract arguments the
// call stays abstract, so values beyond f32 survive, and its result
// converts to the f32 (or f16) form where a concrete type is needed
// (__frexp_result_abstract -> __frexp_result_f32, §Conversion Rank).
// 1e300 = f * 2^e, 0.5 <= f < 1: log2(1e300) = 996.6, so e = 997;
// 2^-1074, the least subnormal, = 0.5 * 2^-1073; 2^900 = 0.5 * 2^901.
// length, distance and normalize are sqrt(dot(e, e)) (their accuracy is
// inherited from it), so 2^500 is squared to 2^1000, still finite.
const big = frexp(1e300);
const_assert big.exp == 997 && big.fract >= 0.5 && big.fract < 1.0;
const tiny = frexp(0x1p-1074);
const_assert tiny.fract == 0.5 && tiny.exp == -1073;
const v = frexp(vec2(0x1p900, -3.0));
const_assert all(v.fract == vec2(0.5, -0.75)) && all(v.exp == vec2(901, 2));
const_assert v.exp.x * 0x100000000 == 3869765533696; // AbstractInt: 901 * 2^32
const mo = modf(0x1p60 + 0.5);                          // 2^60 + 0.5 is not exact
const_assert mo.whole == 0x1p60;
const mv = modf(vec2(-2.5, 1e300));
const_assert all(mv.fract == vec2(-0.5, 0.0)) && mv.whole.y == 1e300;
// the vector and matrix built-ins, by their formulas in AbstractFloat
const_assert length(vec2(0x1p500, 0.0)) == 0x1p500;           // f32 would overflow
const_assert distance(vec2(0x1p500, 0.0), vec2(0.0)) == 0x1p500;
const_assert dot(vec2(3, 4), vec2(0x100000000, 1)) == 12884901892; // 3 * 2^32 + 4
const_assert dot(vec2(0x1p500, 1.0), vec2(0x1p500, 0.0)) == 0x1p1000;
const_assert all(cross(vec3(0x1p600, 0.0, 0.0), vec3(0.0, 1.0, 0.0)) == vec3(0.0, 0.0, 0x1p600));
const_assert all(normalize(vec2(0x1p500, 0.0)) == vec2(1.0, 0.0));
const_assert all(reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)) == vec2(1.0, 1.0));
const_assert all(faceForward(vec2(0x1p600, 0.0), vec2(1.0, 0.0), vec2(1.0, 0.0)) == vec2(-0x1p600, 0.0));
const_assert all(refract(vec2(0.0, -1.0), vec2(0.0, 1.0), 1.0) == vec2(0.0, -1.0));
const_assert determinant(mat2x2(0x1p600, 0.0, 0.0, 0x1p300)) == 0x1p900;
const_assert transpose(mat2x2(1.0, 2.0, 0x1p600, 4.0))[0][1] == 0x1p600;
fn concrete() -> f32 {
  let r = frexp(1.5);   // __frexp_result_f32
  var q = modf(2.25);   // __modf_result_f32
  q = modf(3.5);
  return r.fract + q.fract + f32(r.exp);
}
@compute @workgroup_size(1) fn main() { _ = concrete(); }
