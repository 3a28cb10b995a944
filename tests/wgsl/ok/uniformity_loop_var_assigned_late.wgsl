// §Function-scope Variable Value Analysis: assigned a uniform value, it stays uniform.
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) g: vec3u) {
  var c = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (c == 0u) {
      workgroupBarrier();
    }
    c = g.x;
  }
}
