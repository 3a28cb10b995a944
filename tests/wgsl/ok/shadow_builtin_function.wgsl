// §Declaration and Scope: user declarations may reuse the names of
// predeclared objects (built-in functions, types).
const max = 3;
fn min(a: i32) -> i32 { return a; }
fn f() -> i32 {
  let sqrt = 2;
  let f32 = 1;
  return max + min(sqrt) + f32;
}
@compute @workgroup_size(1) fn main() {}
