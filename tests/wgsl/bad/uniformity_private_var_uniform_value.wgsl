// expect: 7:18 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: a non-read-only module-scope variable is
// MayBeNonUniform even when only uniform values were stored in it.
var<private> p: u32;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  p = g.x;
  if (p == 0u) { workgroupBarrier(); }
}
