// A nested block may shadow a parameter; only the body's top level shares
// the parameters' scope.
fn f(a: u32) -> u32 {
  {
    let a = 3u;
    _ = a;
  }
  for (var a = 0u; a < 2u; a++) {}
  return a;
}
@compute @workgroup_size(1) fn main() { _ = f(1u); }
