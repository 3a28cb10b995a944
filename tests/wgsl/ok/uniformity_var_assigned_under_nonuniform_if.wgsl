// §Function-scope Variable Value Analysis: assigned on both sides of a uniform if.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var x = 0u;
  if (g.x == 0u) { x = 1u; }
  if (x == 0u) { workgroupBarrier(); }
}
