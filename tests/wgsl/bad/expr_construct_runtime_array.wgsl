// expect: 4:7 cannot be constructed
// §Value Constructor Built-in Functions: only constructible types are constructed; a runtime-sized array is not.
fn f() {
  _ = array<u32>();
}
@compute @workgroup_size(1) fn main() {}
