// §Uniformity Rules for Statements: a switch on a uniform selector (num_workgroups).
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  switch n.x {
    case 0u { }
    default { workgroupBarrier(); }
  }
}
