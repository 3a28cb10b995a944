// expect: 4:45 phony assignment needs a value
// The right-hand side of `_ =` must have a value.
fn g() {}
@compute @workgroup_size(1) fn main() { _ = g(); }
