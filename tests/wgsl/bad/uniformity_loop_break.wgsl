// expect: 8:5 must only be called from uniform control flow
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  loop {
    if (k == i) { break; }
    k++;
    if (k > 100u) { return; }
    workgroupBarrier();
  }
}
