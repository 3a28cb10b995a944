// expect: 10:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: `i` is assigned under a non-uniform
// condition, so the loop's exit test and the barrier after it depend on it.
var<private> nu: f32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) x: u32) {
  nu = f32(x);
  var i = 0;
  loop {
    if (i < 2) { } else { break; }
    workgroupBarrier();
    if (nu > 0.0) { i = 5; }
    continuing { i = i + 1; }
  }
}
