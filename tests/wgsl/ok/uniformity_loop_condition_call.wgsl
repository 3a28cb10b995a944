// §while Statement: the same loop with a uniform break.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  while (wait()) { if (g.x == 0u) { break; } }
}
