// expect: 5:7 a phony assignment needs a value
// §Phony Assignment: the right-hand side must have a value (a constructible, pointer, texture or sampler type).
fn g() {}
fn f() {
  _ = g();
}
@compute @workgroup_size(1) fn main() {}
