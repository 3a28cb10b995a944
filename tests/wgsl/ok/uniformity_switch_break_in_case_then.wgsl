// §Uniformity Rules for Statements: a uniform break keeps the rest of the case uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u, @builtin(num_workgroups) n: vec3u) {
  switch g.x {
    case 0u { if (n.x == 0u) { break; } workgroupBarrier(); }
    default { }
  }
}
