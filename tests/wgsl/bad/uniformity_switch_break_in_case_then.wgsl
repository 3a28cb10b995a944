// expect: 6:39 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Statements: after a non-uniform break inside a case the rest
// of the case is non-uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u, @builtin(local_invocation_index) i: u32) {
  switch g.x {
    case 0u { if (i == 0u) { break; } workgroupBarrier(); }
    default { }
  }
}
