@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  if (i == 0u) {
    x = 1u;
  }
  workgroupBarrier();
  x = 2u;
  if (x == 2u) {
    workgroupBarrier();
  }
}
