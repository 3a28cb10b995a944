// expect: 7:5 must only be called from uniform control flow
fn sync() {
  workgroupBarrier();
}
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i > 3u) {
    sync();
  }
}
