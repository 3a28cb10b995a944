// expect: 4:9 while condition: expected bool
// §While Statement: the condition is a bool, not vec2<bool>.
fn f() {
  while vec2(true) { }
}
@compute @workgroup_size(1) fn main() {}
