// §Uniformity Rules for Expressions: a uniform buffer indexed by a uniform value.
@group(0) @binding(0) var<uniform> table: array<vec4u, 4>;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  if (table[g.x].x == 0u) { workgroupBarrier(); }
}
