// §Function-scope Variable Value Analysis: a whole-variable assignment replaces the value.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var v = vec2u(i, 0u);
  v = vec2u(0u);
  if (v.x == 0u) { workgroupBarrier(); }
}
