// expect: 7:5 must only be called from uniform control flow
// §Uniformity Analysis: a loop whose exit depends on a non-uniform value
// makes its body non-uniform after the first check.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  while (k < i) {
    workgroupBarrier();
    k++;
  }
}
