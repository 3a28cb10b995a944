// §Filterable Triggering Rules: a uniform mask (and a non-uniform value).
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = subgroupShuffleXor(i, 1u);
}
