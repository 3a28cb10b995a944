// §Filterable Triggering Rules: diagnostic(off, subgroup_uniformity) silences subgroup operations.
enable subgroups;
diagnostic(off, subgroup_uniformity);
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = subgroupAdd(i); }
}
