// expect: 8:18 'workgroupBarrier' must only be called from uniform control flow
// §Function-scope Variable Value Analysis: PointerParameterMayBeNonUniform: the
// callee stores a MayBeNonUniform value through the pointer.
var<private> nu: u32;
fn store(p: ptr<function, u32>) { *p = nu; }
@compute @workgroup_size(64) fn main() {
  var x = 0u; store(&x);
  if (x == 0u) { workgroupBarrier(); }
}
