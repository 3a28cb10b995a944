// §Function-scope variable value analysis: after a loop or switch a
// variable has the values it has where control leaves the statement
// (breaks, break-ifs, falling through), and after an if those of the
// branches that fall through; each x below starts non-uniform and leaves
// uniform, so each barrier is in uniform control flow.
@group(0) @binding(0) var<storage> uniform_value: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> nonuniform_value: array<u32, 4>;
@compute @workgroup_size(16) fn main() {
  var x = nonuniform_value[0];
  if uniform_value[0] > 0 { x = uniform_value[1]; } else { return; }
  if x > 0 { workgroupBarrier(); }
  var y = nonuniform_value[0];
  loop {
    y = uniform_value[0];
    continuing { break if uniform_value[1] > 0; }
  }
  if y > 0 { workgroupBarrier(); }
  var z = nonuniform_value[0];
  loop {
    if uniform_value[2] > 0 { z = uniform_value[0]; break; }
  }
  if z > 0 { workgroupBarrier(); }
  var w = nonuniform_value[0];
  switch uniform_value[3] {
    case 0 { w = uniform_value[0]; }
    case 1, 2 { w = uniform_value[1]; }
    default { w = uniform_value[2]; }
  }
  if w > 0 { workgroupBarrier(); }
  var v = nonuniform_value[0];
  for (var i = 0; ; i += 1) {
    v = uniform_value[0];
    if uniform_value[1] > 0 { break; }
  }
  if v > 0 { workgroupBarrier(); }
}
