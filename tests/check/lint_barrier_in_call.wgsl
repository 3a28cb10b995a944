// A call that contains a barrier, made under a non-uniform condition.
var<workgroup> t: array<u32, 64>;

fn sync_step(li: u32) {
  workgroupBarrier();
  t[li] = 1u;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  if (li < 32u) {
    sync_step(li);
  }
}
