// expect: 5:12 struct S has no member 'b'
// §Structure Access Expression: the member must exist.
struct S { a: f32 }
fn f(s: S) -> f32 {
  return s.b;
}
@compute @workgroup_size(1) fn main() {}
