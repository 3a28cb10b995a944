// §const Expressions: the right-hand side of false && e and true || e is
// not evaluated, so a built-in there that would fail (sqrt of a negative
// value) is not an error; the type of e still is checked.
const one = 1.0f;
fn f() -> bool {
  let a = false && sqrt(-one) == 0;
  let b = true || pow(-one, 2.0) == 0;
  return a || b;
}
@compute @workgroup_size(1) fn main() { _ = f(); }
