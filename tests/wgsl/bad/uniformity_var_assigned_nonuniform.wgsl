// expect: 6:5 must only be called from uniform control flow
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  x = i;
  if (x == 1u) {
    storageBarrier();
  }
}
