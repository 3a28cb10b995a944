// §Pointer Desugaring: the same load through a uniformly indexed pointer.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var a = array<u32, 64>();
  let p = &a[g.x % 64u];
  if (*p == 0u) { workgroupBarrier(); }
}
