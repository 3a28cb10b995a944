// §Uniformity Rules for Expressions: with a uniform left operand the right side
// runs in uniform control flow.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  _ = (g.x == 0u) && wait();
  _ = (g.x == 0u) || wait();
}
