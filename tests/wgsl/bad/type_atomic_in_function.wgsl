// expect: 4:7 cannot be stored in a function variable
// §Atomic Types: atomics are not constructible, so no function variable holds one.
fn f() {
  var a: atomic<u32>;
}
@compute @workgroup_size(1) fn main() {}
