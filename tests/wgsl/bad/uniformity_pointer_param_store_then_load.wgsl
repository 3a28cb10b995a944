// expect: 9:22 'workgroupBarrier' must only be called from uniform control flow
// note: 9:7 control flow depends on this possibly non-uniform value
// §Function-scope Variable Value Analysis: inside the callee a load through the
// pointer parameter sees what the callee stored (MayBeNonUniform), which it returns.
var<private> nu: u32;
fn f(p: ptr<function, u32>) -> u32 { *p = nu; return *p; }
@compute @workgroup_size(64) fn main() {
  var x = 0u;
  if (f(&x) == 0u) { workgroupBarrier(); }
}
