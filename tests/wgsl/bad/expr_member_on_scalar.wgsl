// expect: 4:12 i32 has no members
// §Structure Access Expression: only structures have members (and vectors swizzles).
fn f(x: i32) -> i32 {
  return x.y;
}
@compute @workgroup_size(1) fn main() {}
