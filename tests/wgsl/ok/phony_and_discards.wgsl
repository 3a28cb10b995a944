// §Phony Assignment: _ = e evaluates and discards any constructible value or pointer.
var<private> p: array<i32, 2>;
fn f() -> i32 { return 1; }
fn g() {
  _ = f();
  _ = &p;
  _ = p;
  _ = vec2f(1.0);
}
@compute @workgroup_size(1) fn main() {}
