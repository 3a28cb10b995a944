// §Function-scope Variable Value Analysis: a variable reassigned a uniform value
// becomes uniform again.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  var x = i;
  x = g.x;
  if (x == 1u) {
    storageBarrier();
  }
}
