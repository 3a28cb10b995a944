// expect: 4:10 clamp's low is greater than its high
// §Numeric Built-in Functions (clamp): a const low greater than high is a shader-creation error.
fn f(x: i32) -> i32 {
  return clamp(x, 5, 3);
}
@compute @workgroup_size(1) fn main() {}
