// expect: 4:19 for condition: expected bool
// §For Statement: the condition is a bool.
fn f() {
  for (var i = 0; i; i++) { }
}
@compute @workgroup_size(1) fn main() {}
