enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let s = subgroupAdd(i);
  let b = subgroupBroadcast(s, 0u);
  _ = b;
}
