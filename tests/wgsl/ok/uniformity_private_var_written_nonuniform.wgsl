// §Uniformity Rules for Expressions: a module-scope constant is uniform (a private
// variable would not be, whatever it was assigned).
const p = 3u;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (p == 0u) { workgroupBarrier(); }
}
