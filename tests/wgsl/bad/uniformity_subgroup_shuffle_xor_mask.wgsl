// expect: 6:29 the mask of 'subgroupShuffleXor' must be a uniform value (subgroup_uniformity)
// note: 5:71 it depends on this possibly non-uniform value
// §Filterable Triggering Rules: subgroupShuffleXor's mask must be uniform.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = subgroupShuffleXor(i, i);
}
