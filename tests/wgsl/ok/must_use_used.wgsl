// §must_use: using the result (let, phony assignment, expression) is enough.
@must_use fn g() -> i32 { return 1; }
fn f() -> i32 {
  let a = g();
  _ = g();
  return a + g();
}
@compute @workgroup_size(1) fn main() {}
