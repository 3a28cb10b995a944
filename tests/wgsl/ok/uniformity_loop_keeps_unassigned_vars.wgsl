// §Uniformity Rules for Statements: a loop inside a non-uniform `if` does
// not make the variables it never assigns depend on that condition; `i`
// stays uniform, so the barrier is in uniform control flow.
var<private> nu: f32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) x: u32) {
  nu = f32(x);
  var i = 0;
  loop {
    if (i < 2) { } else { break; }
    workgroupBarrier();
    if (nu > 0.0) {
      loop { break; }
    }
    continuing { i = i + 1; }
  }
}
