// §Conversion Rank: __frexp_result_abstract converts to
// __frexp_result_f16 (rank 2) where an f16 result is wanted, member by
// member (AbstractFloat -> f16, AbstractInt -> i32).
enable f16;
fn f() -> f16 {
  var r = frexp(1.5h);
  r = frexp(2.5);
  var m = modf(vec2h(1.5h));
  m = modf(vec2(2.25, -0.5));
  return r.fract + m.whole.x;
}
@compute @workgroup_size(1) fn main() { _ = f(); }
