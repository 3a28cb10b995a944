// expect: 5:5 must only be called from uniform control flow
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) {
    workgroupBarrier();
  }
}
