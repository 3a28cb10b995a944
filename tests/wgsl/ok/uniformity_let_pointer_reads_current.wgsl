// §Function-scope Variable Value Analysis: the same, x reassigned a uniform value.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = i;
  let p = &x;
  x = 0u;
  if (*p == 0u) { workgroupBarrier(); }
}
