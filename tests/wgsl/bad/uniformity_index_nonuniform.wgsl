// expect: 5:27 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: e2[e1] depends on the index.
@group(0) @binding(0) var<uniform> table: array<vec4u, 4>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (table[i].x == 0u) { workgroupBarrier(); }
}
