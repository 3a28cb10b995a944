// expect: 5:27 expected bool
// §Break-If Statement: the condition is a bool.
fn f() {
  loop {
    continuing { break if 1; }
  }
}
@compute @workgroup_size(1) fn main() {}
