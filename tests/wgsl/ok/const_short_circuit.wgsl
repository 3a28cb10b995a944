// §Const Expressions: the right-hand side of `false && e` / `true || e` is
// not evaluated, so its overflow or division by zero is not an error (the
// spec's own example for &&).
const a = false && (10i < i32(5 * 1000 * 1000 * 1000));
const_assert !a;
const b = true || (1 / 0 == 0);
const_assert b;
fn id(v: i32) -> i32 { return v; }
@compute @workgroup_size(1) fn main() {
  _ = false && (0 < id(4294967295));
}
