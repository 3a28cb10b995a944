// §Numeric Built-in Functions (frexp, modf) as const-expressions. Values
// from the definitions: 1.5 = 0.75 * 2^1, -12 = -0.75 * 2^4, frexp(0) is
// {0, 0}; modf(-2.5) = {-0.5, -2} (both parts take e's sign).
const a = frexp(1.5);
const_assert a.fract == 0.75 && a.exp == 1;
const b = frexp(vec2f(-12.0, 0.0));
const_assert b.fract.x == -0.75 && b.exp.x == 4 && b.fract.y == 0.0 && b.exp.y == 0;
const m = modf(-2.5);
const_assert m.fract == -0.5 && m.whole == -2.0;
var<private> p = modf(vec3f(1.25, -0.75, 3.0));
@compute @workgroup_size(1) fn main() {
  _ = p;
}
