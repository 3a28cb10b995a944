// §Uniformity Rules for Expressions: override and let of uniform values are uniform.
override limit: u32 = 4u;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  let x = g.x + limit;
  if (x == limit) { workgroupBarrier(); }
}
