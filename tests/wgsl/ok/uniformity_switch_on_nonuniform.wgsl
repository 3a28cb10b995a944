// §Uniformity Rules for Statements: a switch on a uniform selector (workgroup_id).
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) i: vec3u) {
  switch i.x {
    case 0u { workgroupBarrier(); }
    default { }
  }
}
