// expect: 8:9 'h' must only be called from uniform control flow (subgroup_uniformity)
// note: 7:71 depends on this possibly non-uniform value
// §Uniformity Rules for Function Calls: a parameter passed on as subgroupShuffleUp's
// delta is ParameterRequiredToBeUniform under subgroup_uniformity.
enable subgroups;
fn h(d: u32) -> u32 { return subgroupShuffleUp(1u, d); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = h(i);
}
