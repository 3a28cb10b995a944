// §Uniformity Rules for Pointers: the same store of a uniform value.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var x = 0u;
  let p = &x; *p = g.x;
  if (*p == 0u) { workgroupBarrier(); }
}
