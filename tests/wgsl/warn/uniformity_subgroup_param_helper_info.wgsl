// expect: 8:14 note: 'helper' must only be called from uniform control flow (subgroup_uniformity)
// §Uniformity Rules for Function Calls: the parameter tag keeps the info severity of
// the helper's own filter.
enable subgroups;
@diagnostic(info, subgroup_uniformity)
fn helper(c: bool) -> u32 { if (c) { return subgroupAdd(1u); } return 0u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = helper(i == 0u);
}
