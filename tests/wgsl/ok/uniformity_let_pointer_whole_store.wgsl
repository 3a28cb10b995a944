// §Function-scope Variable Value Analysis: `*p = e` through `let p = &x` replaces
// all of x.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = i;
  let p = &x; *p = 0u;
  if (x == 0u) { workgroupBarrier(); }
}
