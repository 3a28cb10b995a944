// expect: 5:3 must be used
// §must_use: the result of a call of a @must_use function must be used.
@must_use fn g() -> i32 { return 1; }
fn f() {
  g();
}
@compute @workgroup_size(1) fn main() {}
