// expect: 4:10 return value: expected i32
// §Return Statement: the value has the return type (after automatic conversion).
fn f() -> i32 {
  return 1.5;
}
@compute @workgroup_size(1) fn main() {}
