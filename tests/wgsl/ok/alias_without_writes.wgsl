// Aliased pointers that are only read, and pointers into different
// variables or a module-scope variable the callee does not touch directly:
// all valid under WGSL's alias analysis.
var<private> x: i32 = 0;
var<private> y: i32 = 0;
fn f4(p1: ptr<function, i32>, p2: ptr<function, i32>) -> i32 { return *p1 + *p2; }
fn f7(p: ptr<private, i32>) -> i32 { return x + *p; }
fn assign(p: ptr<function, i32>, q: ptr<function, i32>) { *p = *q + 1; }
fn sety(p: ptr<private, i32>) { *p = x; }
@compute @workgroup_size(1) fn main() {
  var a = 0;
  var b = 1;
  let pa = &a;
  _ = f4(&a, pa);
  _ = f7(&x);
  assign(&a, &b);
  sety(&y);
}
