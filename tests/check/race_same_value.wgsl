var<workgroup> flag: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  flag = 1u;
  workgroupBarrier();
  out[li] = flag;
}
