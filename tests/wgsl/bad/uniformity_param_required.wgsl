// expect: 8:5 must only be called from uniform control flow
fn f(c: bool) {
  if (c) {
    workgroupBarrier();
  }
}
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  f(i == 0u);
}
