// expect: 5:7 'a' is already declared in this scope
// A function's parameters and the declarations at the top of its body share
// one scope (both end with the body); Dawn reports the same position.
fn f(a: u32) -> u32 {
  let a = 3u;
  return a;
}
@compute @workgroup_size(1) fn main() { _ = f(1u); }
