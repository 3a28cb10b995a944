// expect: 5:22 'quadSwapX' must only be called from uniform control flow (subgroup_uniformity)
// §Filterable Triggering Rules: quad operations fall under subgroup_uniformity.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { _ = quadSwapX(i); }
}
